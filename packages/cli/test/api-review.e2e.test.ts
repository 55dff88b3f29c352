import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { oasYaml } from '../../hub/test/support/documents.js'
import { createHome, oneJson, startTestHub, type Home, type TestHub } from './support/hub.js'
import {
  assertBuilt,
  expectFailureStdout,
  fixtureDir,
  recipeLines,
  runSvc,
  runSvcProcess,
  type RunOptions,
} from './support/run-svc.js'

const V1 = oasYaml(['get /pets', 'post /pets', 'get /pets/{id}'])
/** V1 without `post /pets`: one breaking change. */
const V2 = oasYaml(['get /pets', 'get /pets/{id}'])
/** V2 with `delete /pets/{id}` added: one info change. */
const V3 = oasYaml(['get /pets', 'get /pets/{id}', 'delete /pets/{id}'])

const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/diff/${name}`, import.meta.url), 'utf8')

let t: TestHub
let h: Home
let docs: ReturnType<typeof fixtureDir>

beforeAll(async () => {
  t = await startTestHub({ env: { SVC_HUB_RATE_LIMITS: 'off' } })
  h = createHome()
  docs = fixtureDir({
    'v1.yaml': V1,
    'v2.yaml': V2,
    'v3.yaml': V3,
    'not-an-api.yaml': 'hello: world\n',
    // The same API with `deletePet` renamed `removePet`: nothing on the wire, a renamed function.
    'pets.yaml': fixture('petstore-v1.yaml'),
    'pets-renamed.yaml': fixture('petstore-v1-renamed.yaml'),
  })
})
afterAll(async () => {
  await t?.dispose()
  h?.dispose()
  docs?.dispose()
})

/** `svc <args>` in the documents' folder, with alice's token and the test hub from the environment. */
const svc = (args: readonly string[], options: RunOptions = {}) =>
  runSvc(args, {
    cwd: docs.dir,
    ...options,
    env: { ...h.env, SVC_HUB_TOKEN: t.people.alice, SVC_API_ORIGIN: t.url, ...options.env },
  })

/** A new public API of acme with the documents pushed in order; answers `acme/<slug>`. */
async function newApi(slug: string, documents: readonly string[]): Promise<string> {
  const api = `acme/${slug}`
  const created = await svc(['api', 'create', api, '--visibility', 'public'])
  expect(created.code, created.stderr).toBe(0)
  for (const document of documents) {
    const pushed = await svc(['api', 'push', api, document])
    expect(pushed.code, pushed.stderr).toBe(0)
  }
  return api
}

const revisionCount = async (api: string) =>
  (await t.get(`/v1/apis/${api}/revisions`)).body.revisions.length as number

describe('svc api diff: the pull-request loop', () => {
  it('prints what svc diff prints for the same pair (text, --json, --fail-on, --policy) and stores nothing', async () => {
    const api = await newApi('pr', ['v1.yaml'])
    for (const flags of [
      [],
      ['--fail-on', 'breaking'],
      ['--fail-on', 'warning'],
      ['--json'],
      ['--json', '--fail-on', 'breaking'],
      ['--policy', 'version'],
      ['--policy', 'sunset,version', '--json'],
    ]) {
      for (const next of ['v2.yaml', 'v3.yaml', 'v1.yaml']) {
        const local = await svc(['diff', 'v1.yaml', next, ...flags])
        const hub = await svc(['api', 'diff', api, next, ...flags])
        const what = `${next} ${flags.join(' ')}`
        expect(hub.code, what).toBe(local.code)
        expectSameReport(hub.stdout, local.stdout, what)
        expect(hub.stderr, what).toBe(local.stderr)
      }
    }
    // The same from standard input.
    const piped = await svc(['api', 'diff', api, '-', '--fail-on', 'breaking'], { stdin: V2 })
    expect(piped.code).toBe(1)
    expect(piped.stdout).toContain(
      'POST /pets\n  breaking  endpoint-removed  The operation POST /pets was removed.',
    )
    expect(piped.stderr).toBe('error: --fail-on breaking: 1 breaking change.\n')
    expect(await revisionCount(api)).toBe(1)
  })

  it('judges under --profile sdk as svc diff does, for svc api diff and svc api push', async () => {
    const api = await newApi('sdk', ['pets.yaml'])
    for (const flags of [
      ['--profile', 'sdk', '--json'],
      ['--profile', 'sdk', '--fail-on', 'breaking'],
      ['--profile', 'wire', '--fail-on', 'breaking'],
    ]) {
      const local = await svc(['diff', 'pets.yaml', 'pets-renamed.yaml', ...flags])
      const hub = await svc(['api', 'diff', api, 'pets-renamed.yaml', ...flags])
      const what = flags.join(' ')
      expect(hub.code, what).toBe(local.code)
      expectSameReport(hub.stdout, local.stdout, what)
      expect(hub.stderr, what).toBe(local.stderr)
    }
    const sdk = await svc(['api', 'diff', api, 'pets-renamed.yaml', '--profile', 'sdk'])
    expect(sdk.stdout).toContain('sdk-operation-renamed')
    expect(sdk.code).toBe(0)

    // The push's gate judges under the profile it names; the wire sees no breaking change.
    const gated = await svc([
      'api',
      'push',
      api,
      'pets-renamed.yaml',
      '--profile',
      'sdk',
      '--fail-on',
      'breaking',
    ])
    expect(gated.code, gated.stderr).toBe(1)
    expect(gated.stdout).toContain('sdk-operation-renamed')
    expect(gated.stderr).toContain('--fail-on breaking: 1 breaking change')
    const again = await svc(['api', 'push', api, 'pets-renamed.yaml', '--fail-on', 'breaking'])
    expect(again.code, again.stderr).toBe(0)
    expect(again.stdout).not.toContain('sdk-operation-renamed')
  })

  it('compares with a revision by sequence number, #number or id; as svc diff with that document', async () => {
    const api = await newApi('against', ['v1.yaml', 'v2.yaml'])
    const { revisions } = (await t.get(`/v1/apis/${api}/revisions`)).body
    for (const [against, old] of [
      ['1', 'v1.yaml'],
      ['#1', 'v1.yaml'],
      [revisions[1].id, 'v1.yaml'],
      ['2', 'v2.yaml'],
      ['latest', 'v2.yaml'],
    ]) {
      const local = await svc(['diff', old!, 'v3.yaml', '--json'])
      const hub = await svc(['api', 'diff', api, 'v3.yaml', '--against', against!, '--json'])
      expect(hub.code, against).toBe(0)
      expectSameReport(hub.stdout, local.stdout, against)
    }
    const unknown = await svc(['api', 'diff', api, 'v3.yaml', '--against', '9'])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('has no revision #9')
    expect(unknown.stderr).toContain(`svc api revisions ${api}`)
    expectFailureStdout(unknown, [])
    expect(await revisionCount(api)).toBe(2)
  })

  it('a document that is not an API description: unreadable, exit 1, as svc diff says', async () => {
    const api = await newApi('unreadable', ['v1.yaml'])
    for (const flags of [[], ['--json']]) {
      const local = await svc(['diff', 'v1.yaml', 'not-an-api.yaml', ...flags])
      const hub = await svc(['api', 'diff', api, 'not-an-api.yaml', ...flags])
      expect(hub.code).toBe(1)
      expect(local.code).toBe(1)
      expect(hub.stderr).toBe(local.stderr)
      expect(hub.stdout).toBe(local.stdout)
    }
  })

  it('an API without revisions: exit 0, nothing to compare with', async () => {
    const api = await newApi('empty', [])
    const text = await svc(['api', 'diff', api, 'v1.yaml', '--fail-on', 'breaking'])
    expect(text.code, text.stderr).toBe(0)
    expect(text.stdout).toBe(
      `Nothing to compare with: ${api} has no revisions yet; its first push stores ${docs.dir}/v1.yaml with no changes.\n`,
    )
    const json = await svc(['api', 'diff', api, 'v1.yaml', '--json'])
    expect(json.code).toBe(0)
    expect(oneJson(json)).toEqual({
      summary: { diff: false, details: {} },
      counts: { breaking: 0, warning: 0, info: 0 },
      changes: [],
    })
    expect(json.stderr).toContain('Nothing to compare with')
    expect(await revisionCount(api)).toBe(0)
  })

  it('the real bin: svc api diff and svc api accept', async () => {
    assertBuilt()
    const api = await newApi('bin', ['v1.yaml', 'v2.yaml'])
    const env = { ...h.env, SVC_HUB_TOKEN: t.people.alice, SVC_API_ORIGIN: t.url }
    const diff = await runSvcProcess(['api', 'diff', api, 'v1.yaml', '--fail-on', 'warning'], {
      cwd: docs.dir,
      env,
    })
    expect(diff.code, diff.stderr).toBe(0)
    expect(diff.stdout).toContain('endpoint-added')
    const accept = await runSvcProcess(['api', 'accept', api, '2', '--reason', 'on purpose'], {
      cwd: docs.dir,
      env,
    })
    expect(accept.code, accept.stderr).toBe(0)
    expect(accept.stdout).toContain(`Accepted 1 breaking change of ${api} revision #2`)
  })

  it('a public API is diffed without a token; a private one needs read access', async () => {
    const api = await newApi('open', ['v1.yaml'])
    const anonymous = await svc(['api', 'diff', api, 'v2.yaml'], {
      env: { SVC_HUB_TOKEN: undefined },
    })
    expect(anonymous.code, anonymous.stderr).toBe(0)
    expect(anonymous.stdout).toContain('endpoint-removed')
    const created = await svc(['api', 'create', 'acme/closed'])
    expect(created.code).toBe(0)
    expect((await svc(['api', 'push', 'acme/closed', 'v1.yaml'])).code).toBe(0)
    const outsider = await svc(['api', 'diff', 'acme/closed', 'v2.yaml'], {
      env: { SVC_HUB_TOKEN: t.people.nora },
    })
    expect(outsider.code).toBe(1)
    expect(outsider.stderr).toContain('not found on')
  })
})

describe('svc api accept: a deliberate change passes the gate', () => {
  it('push breaking → exit 1; re-run → exit 1; accept → re-run → exit 0, saying who accepted it, when and why', async () => {
    const api = await newApi('loop', ['v1.yaml'])
    const push = (...more: string[]) =>
      svc(['api', 'push', api, 'v2.yaml', '--fail-on', 'breaking', ...more])
    const failed = await push()
    expect(failed.code).toBe(1)
    expect(failed.stdout).toContain(`Pushed ${api} revision #2`)
    const rerun = await push()
    expect(rerun.code).toBe(1)
    expect(rerun.stderr).toContain('(pushed before; the gate fails again)')
    expect(rerun.stderr).toContain(
      `If the change is deliberate, accept it: svc api accept ${api} 2 --reason "<why>"`,
    )

    const reason = 'POST /pets is gone on purpose: announced in the 2.0 notes'
    const accepted = await svc(['api', 'accept', api, '#2', '--reason', reason])
    expect(accepted.code, accepted.stderr).toBe(0)
    expect(accepted.stdout).toMatch(
      new RegExp(
        `^Accepted 1 breaking change of ${api} revision #2\\n  by      alice\\n  at      \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\n  reason  ${reason}\\n`,
      ),
    )
    expect(accepted.stdout).toContain('svc api push --fail-on now passes on revision #2.')

    const passed = await push()
    expect(passed.code, passed.stderr).toBe(0)
    expect(passed.stdout).toContain(`No change: the document is ${api} revision #2 already`)
    expect(passed.stdout).toMatch(
      new RegExp(
        `--fail-on breaking passes: the 1 breaking change of revision #2 was accepted by alice at \\S+: ${reason}\\n`,
      ),
    )
    const json = await push('--json')
    expect(json.code).toBe(0)
    const result = oneJson(json)
    expect(result.failure).toBeUndefined()
    expect(result.accepted).toEqual({
      failOn: 'breaking',
      crossed: '1 breaking change',
      by: 'alice',
      at: expect.any(String),
      reason,
    })
    expect(result.revision.acceptance).toEqual({ by: 'alice', at: result.accepted.at, reason })
    // A version label on a push that makes no revision is not applied, and the push says so.
    const labelled = await push('--version', '2.0.0')
    expect(labelled.code).toBe(0)
    expect(labelled.stderr).toContain(
      'note: --version 2.0.0 was not applied: revision #2 has this document already',
    )

    // The acceptance is of revision #2's changes only: against #1, svc api diff still fails.
    const diff = await svc([
      'api',
      'diff',
      api,
      'v2.yaml',
      '--against',
      '1',
      '--fail-on',
      'breaking',
    ])
    expect(diff.code).toBe(1)
    const latest = await svc(['api', 'diff', api, 'v2.yaml', '--fail-on', 'breaking'])
    expect(latest.code).toBe(0)

    const twice = await svc(['api', 'accept', api, '2', '--reason', 'again'])
    expect(twice.code).toBe(1)
    expect(twice.stderr).toContain(`were accepted already, by alice at ${result.accepted.at}`)
    expectFailureStdout(twice, [])
    const nothing = await svc(['api', 'accept', api, '1', '--reason', 'why not'])
    expect(nothing.code).toBe(1)
    expect(nothing.stderr).toContain('has no breaking change or warning to accept')
    const changes = await svc(['api', 'changes', api, '2', '--json'])
    expect(changes.code).toBe(0)
    expect(oneJson(changes).revision.acceptance.reason).toBe(reason)
    const text = await svc(['api', 'changes', api, '#2'])
    expect(text.stdout).toMatch(
      new RegExp(`\\nAccepted as deliberate by alice at \\S+: ${reason}\\n$`),
    )
  })

  it('--json: who accepted which revision and the counts', async () => {
    const api = await newApi('accept-json', ['v1.yaml', 'v2.yaml'])
    const { revisions } = (await t.get(`/v1/apis/${api}/revisions`)).body
    const run = await svc(['api', 'accept', api, revisions[0].id, '--reason', 'planned', '--json'])
    expect(run.code, run.stderr).toBe(0)
    expect(oneJson(run)).toEqual({
      type: 'accepted',
      api,
      origin: t.url,
      revision: expect.objectContaining({ id: revisions[0].id, sequence: 2 }),
      acceptance: { by: 'alice', at: expect.any(String), reason: 'planned' },
      counts: { breaking: 1, warning: 0, info: 0 },
      webhookDeliveries: 0,
    })
  })

  it('refuses a missing or malformed revision, reason or token with a recipe (exit 2); a token that may not write with exit 1', async () => {
    const api = await newApi('accept-bad', ['v1.yaml', 'v2.yaml'])
    const recipes: [string[], string][] = [
      [['api', 'accept', api], 'svc api accept needs the revision whose changes to accept'],
      [['api', 'accept', api, 'latest', '--reason', 'x'], "'latest' is not a revision"],
      [['api', 'accept', api, 'two', '--reason', 'x'], "'two' is not a revision"],
      [['api', 'accept', api, '2'], 'svc api accept needs --reason'],
      [['api', 'accept', api, '2', '--reason', '  '], 'svc api accept needs --reason'],
      [['api', 'accept', api, '2', '--reason', 'x'.repeat(501)], '--reason has 501 characters'],
      [['api', 'accept', 'acme', '2', '--reason', 'x'], "'acme' is not an API name"],
      [['api', 'diff', api], 'svc api diff needs the document to compare'],
      [['api', 'diff', api, 'v2.yaml', '--against', 'first'], "'first' is not a revision"],
      [['api', 'diff', api, 'nope.yaml'], 'No such file: nope.yaml'],
    ]
    for (const [args, problem] of recipes) {
      const run = await svc(args)
      expect(run.code, args.join(' ')).toBe(2)
      expect(recipeLines(run.stderr).error, args.join(' ')).toContain(problem)
    }
    const policy = await svc(['api', 'diff', api, 'v2.yaml', '--policy', 'semver'])
    expect(policy.code).toBe(2)
    const noToken = await svc(['api', 'accept', api, '2', '--reason', 'x', '--no-input'], {
      env: { SVC_HUB_TOKEN: undefined },
    })
    expect(noToken.code).toBe(2)
    expect(recipeLines(noToken.stderr).error).toBe(
      'error: svc api accept needs a token: --token, $SVC_HUB_TOKEN, or svc login.',
    )
    const readOnly = await svc(['api', 'accept', api, '2', '--reason', 'x'], {
      env: { SVC_HUB_TOKEN: t.people.aliceReadOnly },
    })
    expect(readOnly.code).toBe(1)
    expect(readOnly.stderr).toContain('the token needs the scope write:apis')
    const reader = await svc(['api', 'accept', api, '2', '--reason', 'x'], {
      env: { SVC_HUB_TOKEN: t.people.rita },
    })
    expect(reader.code).toBe(1)
    expect((await t.get(`/v1/apis/${api}/revisions/2`)).body.acceptance).toBeNull()
  })
})

type Placed = { line?: number; column?: number; file?: string }

/**
 * The same stdout as `svc diff`'s: text byte for byte; JSON but for the places of what is only
 * in the old document, which `svc diff` finds in its old file and `svc api diff` (whose old
 * document is the hub's) at the nearest place of the new one. A place in the new document is
 * the same in both.
 */
function expectSameReport(hub: string, local: string, what: string): void {
  if (!local.startsWith('{')) {
    expect(hub, what).toBe(local)
    return
  }
  const [fromHub, fromLocal] = [hub, local].map(
    (text) => JSON.parse(text) as { changes: Placed[] } & Record<string, unknown>,
  )
  const strip = ({ line: _l, column: _c, file: _f, ...rest }: Placed) => rest
  const bare = (report: { changes: Placed[] }) => ({
    ...report,
    changes: report.changes.map(strip),
  })
  expect(bare(fromHub!), what).toEqual(bare(fromLocal!))
  fromLocal!.changes.forEach((change, index) => {
    if (change.file === undefined && change.line !== undefined)
      expect(fromHub!.changes[index], what).toMatchObject({
        line: change.line,
        column: change.column,
      })
  })
}
