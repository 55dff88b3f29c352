import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { oasJson, oasYaml } from '../../hub/test/support/documents.js'
import { seedTokens } from '../../hub/test/support/fixtures.js'
import { eventually } from '../../hub/test/support/poll.js'
import {
  startReceiver,
  type Answer,
  type Received,
  type Receiver,
} from '../../hub/test/support/receiver.js'
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

/** The hub's document limit in these tests (`SVC_HUB_MAX_DOCUMENT_BYTES`). */
const MAX_DOCUMENT_BYTES = 16 * 1024

const V1 = oasYaml(['get /pets', 'post /pets', 'get /pets/{id}'])
/** V1 without `post /pets`: one breaking change. */
const V2 = oasYaml(['get /pets', 'get /pets/{id}'])
/** V2 with `delete /pets/{id}` added: no breaking change. */
const V3 = oasYaml(['get /pets', 'get /pets/{id}', 'delete /pets/{id}'])

let t: TestHub
let h: Home
let docs: ReturnType<typeof fixtureDir>
/** Serves API sources by path and takes webhook events (the hub may reach it: the allow-list). */
let receiver: Receiver
let hooksToken: string
const served = new Map<string, string>()
let hookAnswer: (request: Received) => Answer = () => ({ status: 204 })

beforeAll(async () => {
  receiver = await startReceiver((request) => {
    const body = served.get(request.path)
    if (body !== undefined)
      return { status: 200, headers: { 'content-type': 'application/json' }, body }
    return hookAnswer(request)
  })
  t = await startTestHub({
    env: {
      SVC_HUB_RATE_LIMITS: 'off',
      SVC_HUB_ALLOW_PRIVATE_NETWORKS: receiver.origin,
      SVC_HUB_MAX_DOCUMENT_BYTES: String(MAX_DOCUMENT_BYTES),
    },
  })
  hooksToken = (await seedTokens(t.hub, { hooks: ['alice', 'admin:webhooks,read'] })).hooks
  h = createHome()
  docs = fixtureDir({
    'v1.yaml': V1,
    'v2.yaml': V2,
    'v3.yaml': V3,
    'big.json': JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'Big', version: '1.0.0', description: 'x'.repeat(MAX_DOCUMENT_BYTES) },
      paths: {},
    }),
    'not-an-api.yaml': 'hello: world\n',
  })
})
afterAll(async () => {
  await t?.dispose()
  await receiver?.close()
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

/** Exit 1 with the advice on stderr and nothing (or, under --json, one error object) on stdout. */
function failsWith(run: Awaited<ReturnType<typeof svc>>, args: readonly string[], advice: string) {
  expect(run.code, run.stderr).toBe(1)
  expect(run.stderr).toContain(advice)
  expect(run.stderr).not.toMatch(/\n\s+at /)
  expectFailureStdout(run, args)
}

describe('svc api create, list, push: the CI gate', () => {
  it('creates an API (owner/slug or @owner/slug), refuses it twice, and lists it', async () => {
    const created = await svc(['api', 'create', '@acme/payments', '--name', 'Payments API'])
    expect(created.code, created.stderr).toBe(0)
    expect(created.stdout).toContain(`Created acme/payments (private) on ${t.url}`)
    expect(created.stdout).toContain('svc api push acme/payments openapi.yaml')
    const api = await t.get('/v1/apis/acme/payments')
    expect(api.status).toBe(200)
    expect(api.body).toMatchObject({ name: 'Payments API', visibility: 'private' })

    const again = await svc(['api', 'create', 'acme/payments'])
    failsWith(again, [], 'the API acme/payments exists already')

    const json = oneJson(
      await svc(['api', 'create', 'acme/public-pets', '--visibility', 'public', '--json']),
    )
    expect(json).toMatchObject({
      type: 'created',
      origin: t.url,
      api: { owner: 'acme', slug: 'public-pets', name: 'public-pets', visibility: 'public' },
    })

    const listed = await svc(['api', 'list', '--owner', 'acme'])
    expect(listed.code, listed.stderr).toBe(0)
    expect(listed.stdout).toMatch(/acme\/payments\s+private\s+Payments API/)
    const anonymous = oneJson(
      await svc(['api', 'list', '--owner', 'acme', '--json'], {
        env: { SVC_HUB_TOKEN: undefined },
      }),
    )
    expect(anonymous.authenticated).toBe(false)
    expect(anonymous.apis.map((a: { slug: string }) => a.slug)).toEqual(['public-pets'])
  })

  it('pushes a first revision, fails the gate on a breaking change, and says when nothing changed', async () => {
    const first = await svc(['api', 'push', 'acme/payments', 'v1.yaml', '--fail-on', 'breaking'])
    expect(first.code, first.stderr).toBe(0)
    expect(first.stdout).toMatch(/^Pushed acme\/payments revision #1\n {2}id {4}rev_[a-z0-9]+\n/)
    expect(first.stdout).toContain('The first revision: nothing to compare with.')

    const breaking = await svc(['api', 'push', 'acme/payments', 'v2.yaml', '--fail-on', 'breaking'])
    expect(breaking.code).toBe(1)
    expect(breaking.stdout).toContain('Pushed acme/payments revision #2')
    expect(breaking.stdout).toContain('Changes against revision #1:')
    expect(breaking.stdout).toMatch(/^1 breaking, /m)
    expect(breaking.stdout).toContain(
      'POST /pets\n  breaking  endpoint-removed  The operation POST /pets was removed.\n',
    )
    expect(breaking.stderr).toContain(
      'error: --fail-on breaking: 1 breaking change in acme/payments revision #2',
    )

    const same = await svc(['api', 'push', 'acme/payments', 'v2.yaml'])
    expect(same.code, same.stderr).toBe(0)
    expect(same.stdout).toBe(
      'No change: the document is acme/payments revision #2 already; no revision was made.\n',
    )
    // A CI job re-run on the same commit pushes the same bytes: its gate fails again.
    for (const failOn of ['breaking', 'warning']) {
      const rerun = await svc(['api', 'push', 'acme/payments', 'v2.yaml', '--fail-on', failOn])
      expect(rerun.code, rerun.stderr).toBe(1)
      expect(rerun.stdout).toContain(
        'No change: the document is acme/payments revision #2 already; no revision was made.\n\nIts changes against revision #1:\n',
      )
      expect(rerun.stdout).toContain('endpoint-removed')
      expect(rerun.stderr).toContain(
        `error: --fail-on ${failOn}: 1 breaking change in acme/payments revision #2 (pushed before; the gate fails again)`,
      )
    }
    const revisions = await t.get('/v1/apis/acme/payments/revisions')
    expect(revisions.body.revisions).toHaveLength(2)
  })

  it('--json: one object with the revision, its changes and counts; labels reach the hub', async () => {
    const args = [
      'api',
      'push',
      'acme/payments',
      'v3.yaml',
      '--version',
      '1.1.0',
      '--published-at',
      '2026-11-20T09:30:00Z',
      '--fail-on',
      'breaking',
      '--json',
    ]
    const run = await svc(args)
    expect(run.code, run.stderr).toBe(0)
    const json = oneJson(run)
    expect(Object.keys(json).sort()).toEqual(
      [
        'api',
        'changes',
        'counts',
        'origin',
        'previousRevision',
        'revision',
        'summary',
        'type',
        'webhookDeliveries',
      ].sort(),
    )
    expect(json).toMatchObject({
      type: 'pushed',
      api: 'acme/payments',
      origin: t.url,
      revision: { sequence: 3, version: '1.1.0', publishedAt: '2026-11-20T09:30:00Z' },
      previousRevision: { sequence: 2 },
      counts: { breaking: 0 },
    })
    expect(json.changes.length).toBeGreaterThan(0)
    expect(json.changes.every((change: { level: string }) => change.level !== 'breaking')).toBe(
      true,
    )

    // v3 → v1 removes DELETE /pets/{id}: --fail-on warning fails on breaking changes too.
    const gated = await svc([
      'api',
      'push',
      'acme/payments',
      'v1.yaml',
      '--fail-on',
      'warning',
      '--json',
    ])
    expect(gated.code).toBe(1)
    expect(oneJson(gated).failure).toEqual({ failOn: 'warning', crossed: '1 breaking change' })
    expect(gated.stderr).toContain('error: --fail-on warning: 1 breaking change')

    const same = await svc(['api', 'push', 'acme/payments', 'v1.yaml', '--json'])
    expect(same.code).toBe(0)
    expect(oneJson(same)).toMatchObject({
      type: 'unchanged',
      changes: [],
      revision: { sequence: 4 },
    })
  })

  it('pushes from standard input', async () => {
    expect((await svc(['api', 'create', 'acme/stdin-pets'])).code).toBe(0)
    const run = await svc(['api', 'push', 'acme/stdin-pets', '-', '--json'], {
      stdin: oasJson(['get /pets']),
    })
    expect(run.code, run.stderr).toBe(0)
    expect(oneJson(run).revision).toMatchObject({ sequence: 1, format: 'json', protocol: 'oas' })
    // Without a file name the content tells the media type: YAML, then GraphQL SDL.
    const yaml = await svc(['api', 'push', 'acme/stdin-pets', '-', '--json'], { stdin: V1 })
    expect(oneJson(yaml).revision).toMatchObject({ sequence: 2, format: 'yaml', protocol: 'oas' })
    expect((await svc(['api', 'create', 'acme/graph'])).code).toBe(0)
    const sdl = 'type Pet {\n  id: ID!\n}\n\ntype Query {\n  pets: [Pet]\n}\n'
    const graph = await svc(['api', 'push', 'acme/graph', '-', '--json'], { stdin: sdl })
    expect(graph.code, graph.stderr).toBe(0)
    expect(oneJson(graph).revision).toMatchObject({ format: 'graphql', protocol: 'gql' })
  })

  it('the real bin: the gate exits 1 with the breaking change on stdout', async () => {
    assertBuilt()
    expect((await svc(['api', 'create', 'acme/bin-pets'])).code).toBe(0)
    const env = { ...h.env, SVC_HUB_TOKEN: t.people.alice, SVC_API_ORIGIN: t.url }
    const push = (file: string) =>
      runSvcProcess(['api', 'push', 'acme/bin-pets', file, '--fail-on', 'breaking'], {
        cwd: docs.dir,
        env,
      })
    expect((await push('v1.yaml')).code).toBe(0)
    const gated = await push('v2.yaml')
    expect(gated.code).toBe(1)
    expect(gated.stdout).toContain('POST /pets\n  breaking  endpoint-removed')
    expect(gated.stderr).toContain('--fail-on breaking: 1 breaking change')
  })
})

describe('svc api revisions, changes', () => {
  it('lists the revisions newest first, and shows the changes of the latest or of one', async () => {
    const list = await svc(['api', 'revisions', 'acme/payments'])
    expect(list.code, list.stderr).toBe(0)
    const lines = list.stdout.trimEnd().split('\n')
    expect(lines[0]).toBe('4 revisions of acme/payments, newest first')
    expect(lines.slice(1).map((line) => line.trim().split(/\s+/)[0])).toEqual([
      '#4',
      '#3',
      '#2',
      '#1',
    ])
    expect(lines[2]).toMatch(/#3\s+rev_\S+\s+1\.1\.0\s+\S+\s+push\s+alice/)

    const json = oneJson(await svc(['api', 'revisions', '@acme/payments', '--json']))
    expect(json.type).toBe('revisions')
    const second = json.revisions.find((r: { sequence: number }) => r.sequence === 2)

    const latest = await svc(['api', 'changes', 'acme/payments'])
    expect(latest.code, latest.stderr).toBe(0)
    expect(latest.stdout).toMatch(/^acme\/payments revision #4 against #3 \(1\.1\.0\):\n/)

    const one = await svc(['api', 'changes', 'acme/payments', second.id])
    expect(one.stdout).toContain('POST /pets\n  breaking  endpoint-removed')
    const oneJsonRun = oneJson(await svc(['api', 'changes', 'acme/payments', second.id, '--json']))
    expect(oneJsonRun).toMatchObject({
      type: 'changes',
      revision: { id: second.id },
      previousRevision: { sequence: 1 },
      counts: { breaking: 1 },
    })

    const bad = await svc(['api', 'changes', 'acme/payments', 'yesterday'])
    expect(bad.code).toBe(2)
    expect(recipeLines(bad.stderr).discover).toBe('Discover: svc api revisions acme/payments')
  })
})

describe('svc api refetch', () => {
  it('has the hub fetch the sourceUrl; the gate applies to what it served', async () => {
    served.set('/docs/pets.json', oasJson(['get /pets', 'post /pets']))
    const create = await svc([
      'api',
      'create',
      'acme/fetched',
      '--source-url',
      `${receiver.origin}/docs/pets.json`,
    ])
    expect(create.code, create.stderr).toBe(0)
    expect(create.stdout).toContain('svc api refetch acme/fetched')
    const first = await svc(['api', 'refetch', 'acme/fetched'])
    expect(first.code, first.stderr).toBe(0)
    expect(first.stdout).toMatch(/^Pushed acme\/fetched revision #1 from its sourceUrl\n/)
    const same = await svc(['api', 'refetch', 'acme/fetched'])
    expect(same.stdout).toContain('No change: the document is acme/fetched revision #1 already')

    served.set('/docs/pets.json', oasJson(['get /pets']))
    const gated = await svc(['api', 'refetch', 'acme/fetched', '--fail-on', 'breaking', '--json'])
    expect(gated.code).toBe(1)
    expect(oneJson(gated)).toMatchObject({
      type: 'pushed',
      revision: { sequence: 2, origin: 'refetch' },
      counts: { breaking: 1 },
      failure: { failOn: 'breaking', crossed: '1 breaking change' },
    })

    const none = await svc(['api', 'refetch', 'acme/payments'])
    failsWith(none, [], 'has no sourceUrl to fetch')
  })
})

describe('svc api webhooks', () => {
  const hooks = (args: readonly string[], options: RunOptions = {}) =>
    svc(['api', 'webhooks', ...args], {
      ...options,
      env: { SVC_HUB_TOKEN: hooksToken, ...options.env },
    })

  it('adds a webhook (the secret once), lists it, tests it, lists deliveries, retries one', async () => {
    const url = `${receiver.origin}/hooks/payments`
    const added = await hooks([
      'add',
      'acme/payments',
      url,
      '--description',
      'CI',
      '--min-level',
      'breaking',
    ])
    expect(added.code, added.stderr).toBe(0)
    const secret = /secret\s+(whsec_\S+)/.exec(added.stdout)?.[1]
    expect(secret).toBeDefined()
    expect(added.stderr).toContain('The secret is shown this once')
    const id = /Added webhook (whk_[0-9a-f]{24}) to acme\/payments/.exec(added.stdout)?.[1]
    expect(id).toBeDefined()

    const list = await hooks(['list', 'acme/payments'])
    expect(list.code, list.stderr).toBe(0)
    expect(list.stdout).toContain(`${id}  active  breaking  ${url}  CI`)
    expect(list.stdout).not.toContain('whsec_')
    const listed = oneJson(await hooks(['list', 'acme/payments', '--json']))
    expect(listed.webhooks).toEqual([expect.objectContaining({ id, url, minLevel: 'breaking' })])
    expect(JSON.stringify(listed)).not.toContain('whsec_')

    const before = receiver.received.length
    const test = await hooks(['test', 'acme/payments', id!, '--json'])
    expect(test.code, test.stderr).toBe(0)
    const delivery = oneJson(test).delivery
    expect(delivery).toMatchObject({ webhookId: id, eventType: 'dev.svc.api.test.v1' })
    const [event] = (await receiver.waitFor(before + 1)).slice(before)
    expect(event!.path).toBe('/hooks/payments')
    expect(JSON.parse(event!.body)).toMatchObject({
      id: delivery.eventId,
      type: 'dev.svc.api.test.v1',
    })

    const succeeded = await eventually(async () => {
      const run = await hooks(['deliveries', 'acme/payments', id!])
      return run.stdout.includes('succeeded') ? run : undefined
    }, 'the test delivery to succeed')
    expect(succeeded.stdout).toMatch(
      new RegExp(
        `${delivery.id}\\s+succeeded\\s+dev\\.svc\\.api\\.test\\.v1\\s+\\S+\\s+1 attempt, last: HTTP 204`,
      ),
    )

    const retried = await hooks(['retry', 'acme/payments', id!, delivery.id])
    expect(retried.code, retried.stderr).toBe(0)
    expect(retried.stdout).toContain(`Retrying delivery ${delivery.id} of ${id}`)
    const [again] = (await receiver.waitFor(before + 2)).slice(before + 1)
    expect(JSON.parse(again!.body).id).toBe(delivery.eventId)

    // A breaking push reaches the webhook too, and the push says so.
    const push = await svc(['api', 'push', 'acme/payments', 'v2.yaml'])
    expect(push.stdout).toContain('1 webhook delivery queued')
    await receiver.waitFor(before + 3)
  })

  it('refuses what the hub cannot find, a token without admin:webhooks, malformed ids', async () => {
    const missing = await hooks(['test', 'acme/payments', 'whk_000000000000000000000000'])
    failsWith(missing, [], 'svc api webhooks list acme/payments')
    const scope = await hooks(['list', 'acme/payments'], { env: { SVC_HUB_TOKEN: t.people.alice } })
    failsWith(scope, [], 'the token needs the scope admin:webhooks')
    const malformed = await hooks(['retry', 'acme/payments', 'whk_1', 'dlv_1'])
    expect(malformed.code).toBe(2)
    expect(recipeLines(malformed.stderr)).toMatchObject({
      error: "error: 'whk_1' is not a webhook id (whk_ and 24 hex digits).",
      discover: 'Discover: svc api webhooks list acme/payments',
    })
    const noUrl = await hooks(['add', 'acme/payments', 'ftp://example.com/x'])
    expect(noUrl.code).toBe(2)
  })
})

describe('svc api: bad input', () => {
  it('a refused token: exit 1 with what to do', async () => {
    for (const args of [
      ['api', 'push', 'acme/payments', 'v1.yaml'],
      ['api', 'push', 'acme/payments', 'v1.yaml', '--json'],
      ['api', 'create', 'acme/other'],
    ]) {
      const run = await svc([...args, '--token', 'svc_pat_wrong'])
      failsWith(run, args, 'run svc login again or pass --token')
      if (args.includes('--json'))
        expect(oneJson(run)).toMatchObject({ type: 'error', code: 'failed', exitCode: 1 })
    }
  })

  it('an API that does not exist: create it first', async () => {
    const run = await svc(['api', 'push', 'acme/nothing-here', 'v1.yaml'])
    failsWith(run, [], `the API acme/nothing-here does not exist on ${t.url}`)
    expect(run.stderr).toContain('svc api create acme/nothing-here')
    const changes = await svc(['api', 'changes', 'acme/nothing-here'])
    failsWith(changes, [], 'There is no API acme/nothing-here')
    expect(changes.stderr).toContain('svc api create acme/nothing-here')
    expect((await svc(['api', 'create', 'acme/empty'])).code).toBe(0)
    const empty = await svc(['api', 'changes', 'acme/empty'])
    failsWith(empty, [], 'acme/empty has no revisions yet.')
    expect(empty.stderr).toContain('svc api revisions acme/empty')
  })

  it('a token that may not write: the scope it needs', async () => {
    const run = await svc(['api', 'push', 'acme/payments', 'v1.yaml'], {
      env: { SVC_HUB_TOKEN: t.people.aliceReadOnly },
    })
    failsWith(run, [], 'the token needs the scope write:apis')
  })

  it('a malformed API name, a missing argument or token, a missing file: exit 2 with a recipe', async () => {
    for (const bad of ['payments', 'acme/', 'Acme/payments', 'acme/pay/ments', '@@acme/payments']) {
      const run = await svc(['api', 'push', bad, 'v1.yaml'])
      expect(run.code, bad).toBe(2)
      expect(recipeLines(run.stderr)).toMatchObject({
        error: expect.stringContaining(`'${bad}' is not an API name`),
        discover: 'Discover: svc api list',
      })
    }
    const noFile = await svc(['api', 'push', 'acme/payments', '--json'])
    expect(noFile.code).toBe(2)
    expect(oneJson(noFile)).toMatchObject({ type: 'error', code: 'usage', exitCode: 2 })
    const missing = await svc(['api', 'push', 'acme/payments', 'nope.yaml'])
    expect(missing.code).toBe(2)
    expect(recipeLines(missing.stderr).error).toBe('error: No such file: nope.yaml')
    const noToken = await svc(['api', 'push', 'acme/payments', 'v1.yaml', '--no-input'], {
      env: { SVC_HUB_TOKEN: undefined },
    })
    expect(noToken.code).toBe(2)
    expect(recipeLines(noToken.stderr).error).toBe(
      'error: svc api push needs a token: --token, $SVC_HUB_TOKEN, or svc login.',
    )
    const date = await svc(['api', 'push', 'acme/payments', 'v1.yaml', '--published-at', 'today'])
    expect(date.code).toBe(2)
    const level = await svc(['api', 'push', 'acme/payments', 'v1.yaml', '--fail-on', 'info'])
    expect(level.code).toBe(2)
  })

  it("an oversized or invalid document: the hub's reason, exit 1, nothing stored", async () => {
    const big = await svc(['api', 'push', 'acme/payments', 'big.json'])
    failsWith(big, [], 'cannot push to acme/payments: the hub answered HTTP 422 payload_too_large')
    const invalid = await svc(['api', 'push', 'acme/payments', 'not-an-api.yaml', '--json'])
    failsWith(
      invalid,
      ['--json'],
      'the hub answered HTTP 422 invalid_document: The document is not an API description',
    )
    const revisions = await t.get('/v1/apis/acme/payments/revisions')
    expect(revisions.body.revisions).toHaveLength(5)
  })
})
