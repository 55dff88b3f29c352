import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seedTokens } from '../../hub/test/support/fixtures.js'
import { createHome, oneJson, startTestHub, type Home, type TestHub } from './support/hub.js'
import {
  expectFailureStdout,
  recipeLines,
  runSvc,
  runSvcOnTerminal,
  type RunOptions,
  type SvcRun,
} from './support/run-svc.js'

const API = 'acme/hooked'

let t: TestHub
let h: Home
/** alice's tokens: one that manages webhooks, one that only reads; rita (a reader of acme) too. */
let tokens: { hooks: string; readOnly: string; ritaHooks: string }

beforeAll(async () => {
  t = await startTestHub({ env: { SVC_HUB_RATE_LIMITS: 'off' } })
  tokens = await seedTokens(t.hub, {
    hooks: ['alice', 'admin:webhooks,read'],
    readOnly: ['alice', 'read'],
    ritaHooks: ['rita', 'admin:webhooks,read'],
  })
  h = createHome()
  const created = await runSvc(['api', 'create', API], {
    env: { ...h.env, SVC_HUB_TOKEN: t.people.alice, SVC_API_ORIGIN: t.url },
  })
  expect(created.code, created.stderr).toBe(0)
})
afterAll(async () => {
  await t?.dispose()
  h?.dispose()
})

const env = (options: RunOptions) => ({
  ...h.env,
  SVC_HUB_TOKEN: tokens.hooks,
  SVC_API_ORIGIN: t.url,
  ...options.env,
})

/** `svc api webhooks <args>` with a token that manages webhooks and the test hub. */
const hooks = (args: readonly string[], options: RunOptions = {}) =>
  runSvc(['api', 'webhooks', ...args], { ...options, env: env(options) })

/** A new webhook of API; its id and secret. */
async function addHook(url: string, ...flags: string[]) {
  const added = await hooks(['add', API, url, '--json', ...flags])
  expect(added.code, added.stderr).toBe(0)
  const { id, secret } = oneJson(added).webhook as { id: string; secret: string }
  return { id, secret }
}

/** The webhook as `list --json` shows it, or undefined when it is not listed. */
async function listed(id: string): Promise<Record<string, unknown> | undefined> {
  const run = await hooks(['list', API, '--json'])
  expect(run.code, run.stderr).toBe(0)
  return (oneJson(run).webhooks as Record<string, unknown>[]).find((hook) => hook.id === id)
}

function usageError(run: SvcRun, error: string, usage: RegExp) {
  expect(run.code, run.stderr).toBe(2)
  const recipe = recipeLines(run.stderr)
  expect(recipe.error).toBe(`error: ${error}`)
  expect(recipe.usage).toMatch(usage)
}

function failsWith(run: SvcRun, args: readonly string[], advice: string) {
  expect(run.code, run.stderr).toBe(1)
  expect(run.stderr).toContain(advice)
  expect(run.stderr).not.toMatch(/\n\s+at /)
  expectFailureStdout(run, args)
}

describe('svc api webhooks update', () => {
  it('changes the URL, description, minimum level and state, as list then shows', async () => {
    const { id } = await addHook('https://hooks.example.com/a', '--description', 'CI')
    const text = await hooks([
      'update',
      API,
      id,
      '--url',
      'https://hooks.example.com/b',
      '--description',
      'chat',
      '--min-level',
      'breaking',
      '--inactive',
    ])
    expect(text.code, text.stderr).toBe(0)
    expect(text.stdout.split('\n')).toEqual([
      `Updated webhook ${id} of ${API}`,
      '  url          https://hooks.example.com/b',
      '  description  chat',
      '  active       no',
      '  min level    breaking',
      "  profile      the API's",
      '',
    ])
    expect(text.stderr).toBe('')
    const list = await hooks(['list', API])
    expect(list.stdout).toContain(`${id}  off     breaking  https://hooks.example.com/b  chat`)

    // --json, like the other webhooks commands; "" removes the description; no secret shown.
    const json = await hooks(['update', API, id, '--active', '--description', '', '--json'])
    expect(json.code, json.stderr).toBe(0)
    const answer = oneJson(json)
    expect(answer).toMatchObject({
      type: 'updated',
      api: API,
      webhook: { id, url: 'https://hooks.example.com/b', description: null, active: true },
    })
    expect(answer.webhook).not.toHaveProperty('secret')
    expect(await listed(id)).toMatchObject({
      url: 'https://hooks.example.com/b',
      description: null,
      active: true,
      minLevel: 'breaking',
      secretRotatedAt: null,
    })
  })

  it('--profile sets the profile its events are judged with; api follows the API again', async () => {
    const { id } = await addHook('https://hooks.example.com/sdk', '--profile', 'sdk')
    expect(await listed(id)).toMatchObject({ profile: 'sdk' })
    const text = await hooks(['update', API, id, '--profile', 'wire'])
    expect(text.code, text.stderr).toBe(0)
    expect(text.stdout).toContain('  profile      wire\n')
    expect(await listed(id)).toMatchObject({ profile: 'wire' })
    expect((await hooks(['update', API, id, '--profile', 'api'])).code).toBe(0)
    expect(await listed(id)).toMatchObject({ profile: null })
    const bad = await hooks(['update', API, id, '--profile', 'grpc'])
    expect(bad.code).toBe(2)
    expect(recipeLines(bad.stderr).error).toMatch(/--profile.*grpc/)
    expect(
      (await hooks(['add', API, 'https://hooks.example.com/x', '--profile', 'api'])).code,
    ).toBe(2)
    expect(await listed(id)).toMatchObject({ profile: null })
  })

  it('--rotate-secret prints the new secret once, with what it means', async () => {
    const { id, secret } = await addHook('https://hooks.example.com/rotate')
    const text = await hooks(['update', API, id, '--rotate-secret', '--min-level', 'warning'])
    expect(text.code, text.stderr).toBe(0)
    const rotated = /^ {2}secret {7}(whsec_\S+)$/m.exec(text.stdout)?.[1]
    expect(rotated).toBeDefined()
    expect(rotated).not.toBe(secret)
    expect(text.stdout).toContain('  min level    warning')
    expect(text.stderr).toContain('The new secret is shown this once')
    const json = oneJson(await hooks(['update', API, id, '--rotate-secret', '--json']))
    expect(json.webhook.secret).toMatch(/^whsec_/)
    expect(json.webhook.secret).not.toBe(rotated)
    const hook = await listed(id)
    expect(hook?.minLevel).toBe('warning')
    expect(hook?.secretRotatedAt).toEqual(expect.any(String))
    expect(JSON.stringify(hook)).not.toContain('whsec_')
  })

  it('bad input: exit 2 before any request, or exit 1 with the hub reason; nothing changes', async () => {
    const { id } = await addHook('https://hooks.example.com/bad', '--description', 'keep')
    const before = await listed(id)
    const usage = /^Usage: svc api webhooks update <owner\/slug> <webhook-id>/
    usageError(
      await hooks(['update', API, id, '--url', 'ftp://hooks.example.com/x']),
      "'ftp://hooks.example.com/x' is not an http(s) URL.",
      usage,
    )
    usageError(
      await hooks(['update', API, id]),
      'Nothing to change: give --url, --description, --min-level, --profile, --active, --inactive or --rotate-secret.',
      usage,
    )
    usageError(
      await hooks(['update', API, id, '--active', '--inactive']),
      'Give --active or --inactive, not both.',
      usage,
    )
    usageError(
      await hooks(['update', API, 'whk_1', '--active']),
      "'whk_1' is not a webhook id (whk_ and 24 hex digits).",
      usage,
    )
    usageError(
      await hooks(['update', API]),
      'svc api webhooks update needs the webhook (whk_…).',
      usage,
    )
    const level = await hooks(['update', API, id, '--min-level', 'fatal'])
    expect(level.code).toBe(2)
    expect(recipeLines(level.stderr).error).toMatch(/--min-level.*fatal/)

    // The hub's outbound guard refuses a private address: 422 url_refused.
    const privateUrl = await hooks(['update', API, id, '--url', 'http://10.0.0.1/hook'])
    failsWith(privateUrl, [], 'url_refused')
    // More than the hub's 500 characters of description.
    const long = await hooks(['update', API, id, '--description', 'x'.repeat(501)])
    failsWith(long, [], 'HTTP 422 invalid_request')
    const longJson = await hooks(['update', API, id, '--description', 'x'.repeat(501), '--json'])
    expect(longJson.code).toBe(1)
    expect(oneJson(longJson)).toMatchObject({ type: 'error', code: 'failed', exitCode: 1 })
    expect(await listed(id)).toEqual(before)
  })

  it('an unknown webhook, no token, a read-only token or a reader: the documented errors', async () => {
    const { id } = await addHook('https://hooks.example.com/tokens')
    const before = await listed(id)
    const unknown = await hooks(['update', API, 'whk_000000000000000000000000', '--inactive'])
    failsWith(unknown, [], `not found on ${t.url}`)
    expect(unknown.stderr).toContain(`the webhooks of ${API} with svc api webhooks list ${API}`)

    const noToken = await hooks(['update', API, id, '--inactive'], {
      env: { SVC_HUB_TOKEN: undefined },
    })
    usageError(
      noToken,
      'svc api webhooks update needs a token: --token, $SVC_HUB_TOKEN, or svc login.',
      /^Usage: svc api webhooks update/,
    )
    const readOnly = await hooks(['update', API, id, '--inactive'], {
      env: { SVC_HUB_TOKEN: tokens.readOnly },
    })
    failsWith(
      readOnly,
      [],
      'the token needs the scope admin:webhooks and write access on the owner',
    )
    expect(readOnly.stderr).toContain('insufficient_scope')
    const reader = await hooks(['update', API, id, '--inactive'], {
      env: { SVC_HUB_TOKEN: tokens.ritaHooks },
    })
    failsWith(reader, [], 'HTTP 403')
    expect(await listed(id)).toEqual(before)
  })
})

describe('svc api webhooks delete', () => {
  it('--yes deletes it with its deliveries: list no longer shows it; again is not found', async () => {
    const { id } = await addHook('https://hooks.example.com/gone')
    const text = await hooks(['delete', API, id, '--yes'])
    expect(text.code, text.stderr).toBe(0)
    expect(text.stdout).toBe(`Deleted webhook ${id} of ${API}, with its deliveries.\n`)
    expect(await listed(id)).toBeUndefined()
    const again = await hooks(['delete', API, id, '--yes'])
    failsWith(again, [], `not found on ${t.url}`)

    const other = await addHook('https://hooks.example.com/gone-json')
    const json = await hooks(['delete', API, other.id, '--yes', '--json', '--no-input'])
    expect(json.code, json.stderr).toBe(0)
    expect(oneJson(json)).toEqual({ type: 'deleted', api: API, webhookId: other.id })
    expect(await listed(other.id)).toBeUndefined()
  })

  it('without --yes where nobody can answer (--json, --no-input, a pipe): exit 2, nothing deleted', async () => {
    const { id } = await addHook('https://hooks.example.com/kept')
    const deletes = await t.requests({ method: 'DELETE' })
    const usage = /^Usage: svc api webhooks delete <owner\/slug> <webhook-id> \[--yes\]/
    const problem = `Deleting ${id} deletes its delivery log too, and cannot be undone: pass --yes to confirm`
    for (const strict of [['--json'], ['--no-input']]) {
      const run = await hooks(['delete', API, id, ...strict])
      usageError(run, `${problem} (--json and --no-input never ask).`, usage)
      if (strict.includes('--json'))
        expect(oneJson(run)).toMatchObject({ type: 'error', code: 'usage', exitCode: 2 })
    }
    const piped = await hooks(['delete', API, id])
    usageError(piped, `${problem} (there is no terminal to ask on).`, usage)
    expect(recipeLines(piped.stderr).discover).toBe(`Discover: svc api webhooks list ${API}`)
    expect(await listed(id)).toBeDefined()
    expect(await t.requests({ method: 'DELETE' })).toBe(deletes)
  })

  it('on a terminal it asks: No keeps the webhook, Yes deletes it', async () => {
    const { id } = await addHook('https://hooks.example.com/asked')
    const question = `Delete webhook ${id} of ${API} (https://hooks.example.com/asked) and its delivery log?`
    const args = ['api', 'webhooks', 'delete', API, id]
    const declined = await runSvcOnTerminal(args, {
      env: env({}),
      answer: { after: 'delivery log?', keys: 'n' },
    })
    expect(declined.timedOut, declined.output).toBe(false)
    expect(declined.answered, declined.output).toBe(true)
    expect(declined.code).toBe(0)
    expect(declined.output).toContain(question)
    expect(declined.output).toContain(`Nothing deleted: ${id} of ${API} is unchanged.`)
    expect(await listed(id)).toBeDefined()

    const accepted = await runSvcOnTerminal(args, {
      env: env({}),
      answer: { after: 'delivery log?', keys: 'y' },
    })
    expect(accepted.timedOut, accepted.output).toBe(false)
    expect(accepted.code).toBe(0)
    expect(accepted.output).toContain(`Deleted webhook ${id} of ${API}, with its deliveries.`)
    expect(await listed(id)).toBeUndefined()

    // An unknown webhook is not found before anything is asked.
    const unknown = await runSvcOnTerminal(
      ['api', 'webhooks', 'delete', API, 'whk_000000000000000000000000'],
      { env: env({}), answer: { after: 'delivery log?', keys: 'y' } },
    )
    expect(unknown.code).toBe(1)
    expect(unknown.answered).toBe(false)
    expect(unknown.output).toContain(`not found on ${t.url}`)
  })

  it('no token, a read-only token, a malformed id: the documented errors, nothing deleted', async () => {
    const { id } = await addHook('https://hooks.example.com/safe')
    const usage = /^Usage: svc api webhooks delete/
    usageError(
      await hooks(['delete', API, id, '--yes'], { env: { SVC_HUB_TOKEN: undefined } }),
      'svc api webhooks delete needs a token: --token, $SVC_HUB_TOKEN, or svc login.',
      usage,
    )
    const readOnly = await hooks(['delete', API, id, '--yes'], {
      env: { SVC_HUB_TOKEN: tokens.readOnly },
    })
    failsWith(
      readOnly,
      [],
      'the token needs the scope admin:webhooks and write access on the owner',
    )
    const reader = await hooks(['delete', API, id, '--yes', '--json'], {
      env: { SVC_HUB_TOKEN: tokens.ritaHooks },
    })
    expect(reader.code).toBe(1)
    expect(oneJson(reader)).toMatchObject({ type: 'error', code: 'failed', exitCode: 1 })
    usageError(
      await hooks(['delete', API, 'whk_XYZ', '--yes']),
      "'whk_XYZ' is not a webhook id (whk_ and 24 hex digits).",
      usage,
    )
    usageError(
      await hooks(['delete', 'acme', id, '--yes']),
      "'acme' is not an API name: owner/slug (or @owner/slug), with the owner a handle and the slug lowercase letters, digits, . _ -.",
      usage,
    )
    expect(await listed(id)).toBeDefined()
  })
})
