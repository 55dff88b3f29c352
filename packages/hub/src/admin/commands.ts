import { createInterface } from 'node:readline'
import type { Command } from 'commander'
import {
  addMember,
  createAccount,
  createApiKey,
  createOrg,
  createToken,
  revokeToken,
} from '../accounts/admin.js'
import { setUserPassword } from '../accounts/passwords.js'
import { loadConfig } from '../config.js'
import {
  clearQuota,
  quotaLine,
  recountUsage,
  setQuota,
  showQuotas,
  usageLines,
} from '../quotas/admin.js'
import { clearRateLimit, setRateLimit } from '../ratelimit/admin.js'
import { chargeCreditsAsOperator, grantCredits, setCreditThreshold } from '../credits/admin.js'
import { openStore, storeOptions, type Store } from '../store/index.js'

type JsonOption = { json?: boolean }

/** Where an admin command reads its configuration and input and writes its answer. */
export type AdminIo = {
  /** SVC_HUB_DATA, DATABASE_URL …: which store the commands work on. */
  readonly env: NodeJS.ProcessEnv
  readonly stdin: NodeJS.ReadableStream
  readonly stdout: (text: string) => void
}

const PROCESS_IO: AdminIo = {
  env: process.env,
  stdin: process.stdin,
  stdout: (text) => void process.stdout.write(text),
}

/**
 * `svc-hub admin …`: operator commands on the store the environment points at (the same
 * SVC_HUB_DATA / DATABASE_URL as `serve`; safe to run beside a running hub). Each prints one
 * text line, or with `--json` one JSON object, on stdout.
 */
export function registerAdminCommands(program: Command, io: AdminIo = PROCESS_IO): void {
  const run = runWith(io)
  const admin = program.command('admin').description('Manage users, organisations and credentials')

  admin
    .command('create-user <handle>')
    .description('Create a user')
    .option('--json', 'print the result as JSON')
    .action((handle: string, options: JsonOption) =>
      run(options, async (store) => {
        const user = await createAccount(store, handle, 'user')
        return {
          result: { id: user.id, handle: user.handle, kind: 'user' },
          text: `created user ${user.handle} (${user.id})`,
        }
      }),
    )

  admin
    .command('create-org <handle>')
    .description('Create an organisation with its first owner')
    .requiredOption('--owner <user>', 'the user who owns it')
    .option('--json', 'print the result as JSON')
    .action((handle: string, options: JsonOption & { owner: string }) =>
      run(options, async (store) => {
        const org = await createOrg(store, handle, options.owner)
        return {
          result: { id: org.id, handle: org.handle, kind: 'org', owner: options.owner },
          text: `created organisation ${org.handle} (${org.id}) owned by ${options.owner}`,
        }
      }),
    )

  admin
    .command('add-member <org> <user>')
    .description("Add a user to an organisation, or change the user's role")
    .requiredOption('--role <role>', 'owner, writer or reader')
    .option('--json', 'print the result as JSON')
    .action((org: string, user: string, options: JsonOption & { role: string }) =>
      run(options, async (store) => {
        const member = await addMember(store, org, user, options.role)
        return { result: member, text: `${member.user} is now ${member.role} of ${member.org}` }
      }),
    )

  admin
    .command('set-password <user>')
    .description("Set a user's web app password, read from stdin (one line); signs the user out")
    .option('--json', 'print the result as JSON')
    .action((user: string, options: JsonOption) =>
      run(options, async (store) => {
        const set = await setUserPassword(store, user, await readLine(io.stdin))
        return {
          result: set,
          text: `set the password of ${set.user}; ended ${set.sessionsEnded} session${set.sessionsEnded === 1 ? '' : 's'}`,
        }
      }),
    )

  admin
    .command('create-token <user>')
    .description('Create a personal access token (printed once)')
    .requiredOption(
      '--scopes <scopes>',
      'comma-separated: read, write:releases, write:projects, write:apis, admin:webhooks',
    )
    .option('--expires <days>', 'days until it expires (default: never)')
    .option('--json', 'print the result as JSON')
    .action((user: string, options: JsonOption & { scopes: string; expires?: string }) =>
      run(options, async (store) => {
        const expires = options.expires === undefined ? undefined : Number(options.expires)
        const token = await createToken(store, user, options.scopes, expires)
        return {
          result: token,
          text: `${token.token}\n(token ${token.id} for ${token.user}; scopes ${token.scopes.join(',')}; ${token.expiresAt ? `expires ${token.expiresAt}` : 'never expires'})`,
        }
      }),
    )

  admin
    .command('revoke-token <id>')
    .description('Revoke a personal access token by its id (tok_…)')
    .option('--json', 'print the result as JSON')
    .action((id: string, options: JsonOption) =>
      run(options, async (store) => {
        const revoked = await revokeToken(store, id)
        return { result: revoked, text: `revoked token ${revoked.id}` }
      }),
    )

  admin
    .command('create-api-key <org>')
    .description('Create an organisation API key (printed once)')
    .option('--json', 'print the result as JSON')
    .action((org: string, options: JsonOption) =>
      run(options, async (store) => {
        const key = await createApiKey(store, org)
        return { result: key, text: `${key.key}\n(API key ${key.id} for ${key.org})` }
      }),
    )

  admin
    .command('set-rate-limit <org> <method> <path>')
    .description("Set an organisation's own limit for one route (docs/api/rate-limits.md)")
    .requiredOption('--max <n>', 'requests allowed per window')
    .requiredOption('--window <seconds>', 'length of the window in seconds')
    .option('--json', 'print the result as JSON')
    .action(
      (
        org: string,
        method: string,
        path: string,
        options: JsonOption & { max: string; window: string },
      ) =>
        run(options, async (store) => {
          const max = Number(options.max)
          const set = await setRateLimit(store, org, method, path, max, Number(options.window))
          return {
            result: set,
            text: `${set.org}: ${set.method} ${set.path} allows ${set.max} requests per ${set.windowSeconds} s`,
          }
        }),
    )

  admin
    .command('clear-rate-limit <org> <method> <path>')
    .description("Remove an organisation's own limit for one route: the default applies again")
    .option('--json', 'print the result as JSON')
    .action((org: string, method: string, path: string, options: JsonOption) =>
      run(options, async (store) => {
        const cleared = await clearRateLimit(store, org, method, path)
        return {
          result: cleared,
          text: `${cleared.org}: ${cleared.method} ${cleared.path} is back to the default, ${cleared.max} requests per ${cleared.windowSeconds} s`,
        }
      }),
    )

  admin
    .command('quotas <account>')
    .description(
      'What a user or organisation stores against each storage quota (docs/hub/running.md#quotas)',
    )
    .option('--json', 'print the result as JSON')
    .action((account: string, options: JsonOption) =>
      run(options, async (store) => {
        const usage = await showQuotas(store, account, loadConfig(io.env).quotas.storage)
        return { result: usage, text: `${usage.account} (${usage.kind})\n${usageLines(usage)}` }
      }),
    )

  admin
    .command('set-quota <account> <quota> <limit>')
    .description(
      "Set a user's or organisation's own limit for one storage quota: a whole number (bytes for …Bytes quotas), 0 or 'unlimited' for none",
    )
    .option('--json', 'print the result as JSON')
    .action((account: string, quota: string, limit: string, options: JsonOption) =>
      run(options, async (store) => {
        const set = await setQuota(store, account, quota, limit, loadConfig(io.env).quotas.storage)
        return { result: set, text: `${set.account}: ${set.quota} ${quotaLine(set)}` }
      }),
    )

  admin
    .command('clear-quota <account> <quota>')
    .description("Remove an account's own limit for one storage quota: the default applies again")
    .option('--json', 'print the result as JSON')
    .action((account: string, quota: string, options: JsonOption) =>
      run(options, async (store) => {
        const limits = loadConfig(io.env).quotas.storage
        const cleared = await clearQuota(store, account, quota, limits)
        return {
          result: cleared,
          text: `${cleared.account}: ${cleared.quota} ${quotaLine(cleared)}`,
        }
      }),
    )

  admin
    .command('recount-usage <account>')
    .description('Count what an account stores again from the records, and make that its usage')
    .option('--json', 'print the result as JSON')
    .action((account: string, options: JsonOption) =>
      run(options, async (store) => {
        const usage = await recountUsage(store, account, loadConfig(io.env).quotas.storage)
        return {
          result: usage,
          text: `${usage.account} (${usage.kind}), recounted\n${usageLines(usage)}`,
        }
      }),
    )

  admin
    .command('grant-credits <org> <amount>')
    .description("Add credits to an organisation's balance (docs/api/credits.md)")
    .option('--reason <text>', 'why, kept in the ledger (default: operator grant)')
    .option('--json', 'print the result as JSON')
    .action((org: string, amount: string, options: JsonOption & { reason?: string }) =>
      run(options, async (store) => {
        const grant = await grantCredits(store, org, amount, options.reason)
        return {
          result: grant,
          text: `granted ${grant.granted} credits to ${grant.org} (${grant.entryId}); balance ${grant.balance}`,
        }
      }),
    )

  admin
    .command('charge-credits <org> <amount>')
    .description("Take credits from an organisation's balance; refused when it does not cover them")
    .option('--reason <text>', 'why, kept in the ledger (default: operator charge)')
    .option('--json', 'print the result as JSON')
    .action((org: string, amount: string, options: JsonOption & { reason?: string }) =>
      run(options, async (store) => {
        const charge = await chargeCreditsAsOperator(store, org, amount, options.reason)
        return {
          result: charge,
          text: `charged ${charge.charged} credits to ${charge.org} (${charge.entryId}); balance ${charge.balance}`,
        }
      }),
    )

  admin
    .command('set-credit-threshold <org> <amount>')
    .description('Set the balance below which answers carry a low-credit alert (default 10)')
    .option('--json', 'print the result as JSON')
    .action((org: string, amount: string, options: JsonOption) =>
      run(options, async (store) => {
        const set = await setCreditThreshold(store, org, amount)
        return {
          result: set,
          text: `low-credit threshold of ${set.org} is ${set.lowCreditThreshold}; balance ${set.balance}`,
        }
      }),
    )
}

/** The first line of `input` without its line break; '' when it ends before one. */
async function readLine(input: NodeJS.ReadableStream): Promise<string> {
  const lines = createInterface({ input, crlfDelay: Infinity, terminal: false })
  try {
    for await (const line of lines) return line
    return ''
  } finally {
    lines.close()
  }
}

function runWith(io: AdminIo) {
  return async function run(
    options: JsonOption,
    work: (store: Store) => Promise<{ result: object; text: string }>,
  ): Promise<void> {
    const store = await openStore(storeOptions(loadConfig(io.env)))
    try {
      const { result, text } = await work(store)
      io.stdout(options.json ? `${JSON.stringify(result)}\n` : `${text}\n`)
    } finally {
      await store.close()
    }
  }
}
