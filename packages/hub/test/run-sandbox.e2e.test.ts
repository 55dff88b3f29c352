import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeKinds } from './support/databases.js'
import { adminToken, seedPeople, type People } from './support/fixtures.js'
import { HUB_BIN, runNode, startHub, type HubProcess } from './support/hub-process.js'
import { call, manifest, publishForm, type Reply } from './support/http.js'
import { eventually } from './support/poll.js'
import { alive, descendants } from './support/processes.js'
import { expectStoreUnchanged } from './support/store-snapshot.js'
import { signUpPeople, type WebSession } from './support/web-session.js'
import {
  BUFFER_BUNDLE,
  FLOOD_BUNDLE,
  LOOP_BUNDLE,
  outcomeBundle,
  PETSTORE,
} from './support/stack-bundles.js'

/**
 * Hostile bundles, one escape attempt each, run by the real hub in its sandbox
 * (docs/hub/running.md#runs): each attempt fails inside its run, and the hub answers after each.
 */
const RUN_ENV = {
  SVC_HUB_RUN_TIMEOUT_MS: '5000',
  SVC_HUB_RUN_MEMORY_MB: '64',
  SVC_HUB_RUN_MAX_OUTPUT_BYTES: String(1024 * 1024),
}

/** An escape attempt: the bundle, given what it needs to aim, and what its run must end as. */
type Attempt = {
  readonly name: string
  readonly bundle: (target: Target) => string
  readonly expect: (run: { status: string; error: string | null; outcome: unknown }) => void
}

type Target = { hubPid: number; port: number; dataDir: string }

const succeededWith = (outcome: unknown) => (run: { status: string; outcome: unknown }) => {
  expect(run.status).toBe('succeeded')
  expect(run.outcome).toEqual(outcome)
}

const ATTEMPTS: readonly Attempt[] = [
  {
    name: 'kill the hub with SIGKILL: its parent is the sandbox, the hub is not there',
    bundle: ({ hubPid }) =>
      outcomeBundle(`return {
        ppid: process.ppid,
        parent: code(() => process.kill(process.ppid, 'SIGKILL')),
        hub: code(() => process.kill(${hubPid}, 'SIGKILL')),
      }`),
    expect: succeededWith({ ppid: 1, parent: 'allowed', hub: 'ESRCH' }),
  },
  {
    name: 'kill every process it may (kill -1)',
    bundle: () => outcomeBundle(`return { all: code(() => process.kill(-1, 'SIGKILL')) }`),
    expect: succeededWith({ all: 'ESRCH' }),
  },
  {
    name: 'stop the hub with SIGSTOP',
    bundle: ({ hubPid }) =>
      outcomeBundle(`return {
        parent: code(() => process.kill(process.ppid, 'SIGSTOP')),
        hub: code(() => process.kill(${hubPid}, 'SIGSTOP')),
      }`),
    expect: succeededWith({ parent: 'allowed', hub: 'ESRCH' }),
  },
  {
    name: 'connect to a loopback listener on the host',
    bundle: ({ port }) =>
      outcomeBundle(`return { tcp: await connect({ host: '127.0.0.1', port: ${port} }) }`),
    expect: succeededWith({ tcp: 'ECONNREFUSED' }),
  },
  {
    name: "connect to PostgreSQL's port",
    bundle: () =>
      outcomeBundle(`return { postgres: await connect({ host: '127.0.0.1', port: 5432 }) }`),
    expect: succeededWith({ postgres: 'ECONNREFUSED' }),
  },
  {
    name: "connect to PostgreSQL's Unix socket",
    bundle: () =>
      outcomeBundle(
        `return { socket: await connect({ path: '/var/run/postgresql/.s.PGSQL.5432' }) }`,
      ),
    expect: succeededWith({ socket: 'ENOENT' }),
  },
  {
    name: 'read /etc/passwd',
    bundle: () =>
      outcomeBundle(
        `return { passwd: code(() => require('node:fs').readFileSync('/etc/passwd')) }`,
      ),
    expect: succeededWith({ passwd: 'ERR_ACCESS_DENIED' }),
  },
  {
    name: "read the hub's data directory",
    bundle: ({ dataDir }) =>
      outcomeBundle(
        `return { data: code(() => require('node:fs').readdirSync(${JSON.stringify(dataDir)})) }`,
      ),
    expect: succeededWith({ data: 'ENOENT' }),
  },
  {
    name: 'fork',
    bundle: () =>
      outcomeBundle(`return {
        spawn: code(() => require('node:child_process').spawnSync('/usr/bin/id')),
        fork: code(() => require('node:child_process').fork('/bundle/server.js')),
        binding: code(() => process.binding('spawn_sync')),
      }`),
    expect: succeededWith({
      spawn: 'ERR_ACCESS_DENIED',
      fork: 'ERR_ACCESS_DENIED',
      binding: 'ERR_ACCESS_DENIED',
    }),
  },
  {
    name: 'fill memory outside the V8 heap',
    bundle: () => BUFFER_BUNDLE,
    expect: (run) => {
      expect(run.status).toBe('succeeded')
      const outcome = run.outcome as { mb: number; error: string }
      expect(outcome.error).toBe('Array buffer allocation failed')
      // The writable-memory limit: the 64 MB heap + 512 MB.
      expect(outcome.mb).toBeLessThan(64 + 512)
    },
  },
  {
    name: 'loop forever',
    bundle: () => LOOP_BUNDLE,
    expect: (run) => {
      expect(run).toMatchObject({
        status: 'failed',
        error: 'server.js did not finish within the time limit (5 s).',
      })
    },
  },
  {
    name: 'write 1 GB to stdout',
    bundle: () => FLOOD_BUNDLE,
    expect: (run) => {
      expect(run).toMatchObject({
        status: 'failed',
        error: "server.js printed more than 1048576 bytes, the hub's limit.",
      })
    },
  },
]

for (const kind of await storeKinds()) {
  describe(`a run's escape attempts fail inside it (${kind})`, () => {
    let hub: HubProcess
    let people: People
    let listener: Server
    let connections = 0
    let target: Target
    let version = 0
    const v1 = (path: string) => `${hub.url}/v1${path}`

    /** Publishes `bundle` as a new version, deploys and runs it, and answers the ended run. */
    async function run(bundle: string) {
      const stackVersion = `1.0.${version++}`
      const published = await call(v1('/stacks/acme/web/versions'), {
        method: 'POST',
        token: people.alice,
        body: publishForm({
          version: stackVersion,
          bundle,
          files: [manifest('@acme/web', {}, stackVersion)],
        }),
      })
      expect(published.status, published.text).toBe(201)
      const deployed = await call(v1('/projects/acme/shop/deployments'), {
        method: 'POST',
        token: people.alice,
        json: { stackVersion },
      })
      expect(deployed.status, deployed.text).toBe(201)
      const started = await call(v1('/projects/acme/shop/runs'), {
        method: 'POST',
        token: people.alice,
        json: { deployment: deployed.body.id },
      })
      expect(started.status, started.text).toBe(202)
      const ended = await eventually(
        async () => {
          // The hub keeps answering while the run goes on.
          expect((await call(`${hub.url}/healthz`)).status).toBe(200)
          const reply = await call(v1(`/projects/acme/shop/runs/${started.body.id}`), {
            token: people.alice,
          })
          return reply.body?.status === 'running' ? undefined : reply.body
        },
        'the run ends',
        60_000,
      )
      const outcome = ended.artifacts.find((a: { path: string }) => a.path === 'outcome.json')
      return {
        status: ended.status as string,
        error: ended.error as string | null,
        log: ended.log as string | null,
        outcome: outcome
          ? JSON.parse((await call(outcome.url, { token: people.alice })).text)
          : null,
      }
    }

    beforeAll(async () => {
      listener = createServer((socket) => {
        connections++
        socket.destroy()
      })
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve))
      hub = await startHub(kind, { env: RUN_ENV })
      people = await seedPeople(hub)
      const api = await call(v1('/apis'), {
        method: 'POST',
        token: people.alice,
        json: { owner: 'acme', slug: 'petstore', name: 'Petstore' },
      })
      expect(api.status, api.text).toBe(201)
      const pushed = await call(v1('/apis/acme/petstore/revisions'), {
        method: 'POST',
        token: people.alice,
        headers: { 'content-type': 'application/json' },
        body: readFileSync(PETSTORE, 'utf8'),
      })
      expect(pushed.status, pushed.text).toBe(201)
      const published = await call(v1('/stacks/acme/web/versions'), {
        method: 'POST',
        token: people.alice,
        body: publishForm({
          version: '0.0.1',
          bundle: outcomeBundle('return {}'),
          files: [manifest('@acme/web', {}, '0.0.1')],
        }),
      })
      expect(published.status, published.text).toBe(201)
      const project = await call(v1('/projects'), {
        method: 'POST',
        token: people.alice,
        json: { account: 'acme', slug: 'shop', stack: '@acme/web', api: 'acme/petstore' },
      })
      expect(project.status, project.text).toBe(201)
      target = {
        hubPid: hubPid(hub),
        port: (listener.address() as { port: number }).port,
        dataDir: hub.dataDir,
      }
    }, 60_000)
    afterAll(async () => {
      await hub?.dispose()
      await new Promise((resolve) => listener?.close(resolve))
    })

    it('the hub says at start that runs are sandboxed', () => {
      expect(logLines(hub, 'listening')).toEqual([expect.objectContaining({ runs: 'sandboxed' })])
      expect(logLines(hub, 'runs are')).toEqual([])
    })

    for (const attempt of ATTEMPTS) {
      it(`${attempt.name}: fails inside the run, and the hub answers`, async () => {
        const ended = await run(attempt.bundle(target))
        attempt.expect(ended)
        expect(connections).toBe(0)
        expect(alive(target.hubPid)).toBe(true)
        expect((await call(`${hub.url}/healthz`)).status).toBe(200)
      }, 60_000)
    }
  })
}

/** The pid of `hub`'s own process (a child of this test process). */
function hubPid(hub: HubProcess): number {
  const found = descendants().find((p) => p.environ.includes(`SVC_HUB_DATA=${hub.dataDir}`))
  if (!found) throw new Error('the hub process is not among this test’s children')
  return found.pid
}

/** The pino lines of the hub's log whose message starts with `start`. */
function logLines(hub: HubProcess, start: string): Record<string, unknown>[] {
  return hub
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => typeof line.msg === 'string' && line.msg.startsWith(start))
}

/**
 * On a new hub: web users (alice owns acme), a PAT of alice's, and a project acme/shop whose one
 * deployment answers which process its parent is. Answers alice's page session and her /v1 calls.
 */
async function shopOn(hub: HubProcess): Promise<{
  alice: WebSession
  v1(path: string, init?: RequestInit & { json?: unknown }): Promise<Reply>
}> {
  const { alice } = await signUpPeople(hub)
  const pat = await adminToken(hub, 'alice', 'read,write:releases,write:projects,write:apis')
  const v1 = (path: string, init: RequestInit & { json?: unknown } = {}) =>
    call(`${hub.url}/v1${path}`, { ...init, token: pat })
  const bundle = outcomeBundle('return { ppid: process.ppid }')
  for (const [path, init] of [
    [
      '/stacks/acme/web/versions',
      {
        method: 'POST',
        body: publishForm({ version: '1.0.0', bundle, files: [manifest('@acme/web')] }),
      },
    ],
    ['/apis', { method: 'POST', json: { owner: 'acme', slug: 'pets', name: 'Pets' } }],
    [
      '/apis/acme/pets/revisions',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: readFileSync(PETSTORE, 'utf8'),
      },
    ],
    [
      '/projects',
      {
        method: 'POST',
        json: { account: 'acme', slug: 'shop', stack: '@acme/web', api: 'acme/pets' },
      },
    ],
    ['/projects/acme/shop/deployments', { method: 'POST', json: { stackVersion: '1.0.0' } }],
  ] as const) {
    const reply = await v1(path, init)
    expect(reply.status, `${path}: ${reply.text}`).toBe(201)
  }
  return { alice, v1 }
}

describe('a hub without a sandbox (sqlite)', () => {
  // No bwrap on PATH: the hub's probe finds no sandbox.
  const NO_BWRAP = { ...RUN_ENV, PATH: '/nonexistent' }

  it('refuses runs with 503 sandbox_unavailable on the API and the page, stores nothing, and warns at start', async () => {
    const hub = await startHub('sqlite', { env: NO_BWRAP })
    try {
      expect(logLines(hub, 'runs are unavailable')).toEqual([
        expect.objectContaining({ level: 40, sandbox: 'bwrap', reason: 'bwrap is not on PATH' }),
      ])
      expect(logLines(hub, 'listening')).toEqual([expect.objectContaining({ runs: 'unavailable' })])
      const shop = await shopOn(hub)
      await expectStoreUnchanged(hub, async () => {
        const refused = await shop.v1('/projects/acme/shop/runs', { method: 'POST', json: {} })
        expect(refused.status).toBe(503)
        expect(refused.body).toMatchObject({
          code: 'sandbox_unavailable',
          message: expect.stringContaining('(bwrap is not on PATH)'),
        })
        for (const fix of [
          'apt-get install bubblewrap',
          'user namespaces',
          'SVC_HUB_RUN_SANDBOX=unsafe-none',
        ]) {
          expect(refused.body.message).toContain(fix)
        }
      })
      // The runs page says the same where its Run button is; still no run is stored.
      const page = await shop.alice.submit('/acme/projects/shop/runs', {})
      expect(page.status).toBe(503)
      expect(page.text).toMatch(
        /<div class="flash error" role="alert">Runs are unavailable on this hub: [^<]*SVC_HUB_RUN_SANDBOX=unsafe-none[^<]*<\/div>/,
      )
      expect((await shop.v1('/projects/acme/shop/runs')).body.runs).toEqual([])
    } finally {
      await hub.dispose()
    }
  }, 60_000)

  it('runs bundles unsandboxed with SVC_HUB_RUN_SANDBOX=unsafe-none, and warns at start', async () => {
    const hub = await startHub('sqlite', {
      env: { ...NO_BWRAP, SVC_HUB_RUN_SANDBOX: 'unsafe-none' },
    })
    try {
      expect(logLines(hub, 'runs are not sandboxed')).toEqual([
        expect.objectContaining({ level: 40, sandbox: 'unsafe-none' }),
      ])
      expect(logLines(hub, 'listening')).toEqual([expect.objectContaining({ runs: 'unsandboxed' })])
      const shop = await shopOn(hub)
      const started = await shop.v1('/projects/acme/shop/runs', { method: 'POST', json: {} })
      expect(started.status, started.text).toBe(202)
      const ended = await eventually(async () => {
        const reply = await shop.v1(`/projects/acme/shop/runs/${started.body.id}`)
        return reply.body?.status === 'running' ? undefined : reply.body
      }, 'the run ends')
      expect(ended.status, ended.error ?? '').toBe('succeeded')
      // Unsandboxed, the bundle's parent is the hub itself.
      const outcome = await shop.v1(
        `/projects/acme/shop/runs/${started.body.id}/artifacts/outcome.json`,
      )
      expect(JSON.parse(outcome.text)).toEqual({ ppid: hubPid(hub) })
    } finally {
      await hub.dispose()
    }
  }, 60_000)

  it('stops at start on an unknown SVC_HUB_RUN_SANDBOX', async () => {
    const run = await runNode([HUB_BIN, 'serve'], {
      ...process.env,
      PORT: '0',
      SVC_HUB_RUN_SANDBOX: 'none',
    })
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(
      "error: SVC_HUB_RUN_SANDBOX must be 'bwrap' or 'unsafe-none', got 'none'",
    )
  })
})
