import type { Command } from 'commander'
import {
  addMember,
  createAccount,
  createApiKey,
  createOrg,
  createToken,
  revokeToken,
} from '../accounts/admin.js'
import { loadConfig } from '../config.js'
import { openStore, storeOptions, type Store } from '../store/index.js'

type JsonOption = { json?: boolean }

/**
 * `svc-hub admin …`: operator commands on the store the environment points at (the same
 * SVC_HUB_DATA / DATABASE_URL as `serve`; safe to run beside a running hub). Each prints one
 * text line, or with `--json` one JSON object, on stdout.
 */
export function registerAdminCommands(program: Command): void {
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
}

async function run(
  options: JsonOption,
  work: (store: Store) => Promise<{ result: object; text: string }>,
): Promise<void> {
  const store = await openStore(storeOptions(loadConfig()))
  try {
    const { result, text } = await work(store)
    process.stdout.write(options.json ? `${JSON.stringify(result)}\n` : `${text}\n`)
  } finally {
    await store.close()
  }
}
