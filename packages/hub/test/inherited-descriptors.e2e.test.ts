import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seedPeople } from './support/fixtures.js'
import { startHub, type HubProcess } from './support/hub-process.js'
import { call, manifest, publishForm } from './support/http.js'
import { eventually } from './support/poll.js'
import {
  DESCRIPTOR_BUNDLE,
  HOST_FD,
  hostFiles,
  SECRET_FD,
  type DescriptorOutcome,
} from './support/descriptor-probe.js'
import { PETSTORE } from './support/stack-bundles.js'
import { assertBuildFresh } from './support/fresh-build.js'

/**
 * Only stdin, stdout and stderr (and the answer pipe) enter a run's sandbox, whatever the process
 * that runs it inherited (docs/hub/running.md#what-the-sandbox-isolates): started as
 * `exec 200>>host-file 201<secret-file; exec svc-hub serve` would start it, a published bundle
 * can neither write the host file nor read the secret, nor find either open.
 */
const RUN_ENV = { SVC_HUB_RUN_TIMEOUT_MS: '20000', SVC_HUB_RUN_MEMORY_MB: '128' }

/** The hub says which descriptors it closed at debug level. */
const DEBUG = { SVC_HUB_LOG_LEVEL: 'debug' }

/** The descriptors `pid` has open, by number. */
function openDescriptors(pid: number): number[] {
  return readdirSync(`/proc/${pid}/fd`).map(Number)
}

/** The pino lines of a log whose message starts with `start`. */
function logLines(stdout: string, start: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => typeof line.msg === 'string' && line.msg.startsWith(start))
}

for (const sandbox of ['bwrap', 'unsafe-none'] as const) {
  describe(`a hub started with descriptors open (sqlite, SVC_HUB_RUN_SANDBOX=${sandbox})`, () => {
    let files: ReturnType<typeof hostFiles>
    let hub: HubProcess
    let alice: string
    const v1 = (path: string) => `${hub.url}/v1${path}`

    beforeAll(async () => {
      files = hostFiles()
      hub = await startHub('sqlite', {
        env: { ...RUN_ENV, ...DEBUG, SVC_HUB_RUN_SANDBOX: sandbox },
        descriptors: files.descriptors,
      })
      alice = (await seedPeople(hub)).alice
      const steps: [string, RequestInit & { json?: unknown }][] = [
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
          '/stacks/acme/web/versions',
          {
            method: 'POST',
            body: publishForm({
              version: '1.0.0',
              bundle: DESCRIPTOR_BUNDLE,
              files: [manifest('@acme/web')],
            }),
          },
        ],
        [
          '/projects',
          {
            method: 'POST',
            json: { account: 'acme', slug: 'shop', stack: '@acme/web', api: 'acme/pets' },
          },
        ],
      ]
      for (const [path, init] of steps) {
        const reply = await call(v1(path), { ...init, token: alice })
        expect(reply.status, `${path}: ${reply.text}`).toBe(201)
      }
    }, 60_000)
    afterAll(async () => {
      await hub?.dispose()
      files?.close()
    })

    it('closes them at start and logs which (debug)', () => {
      const open = openDescriptors(hub.pid)
      expect(open).not.toContain(HOST_FD)
      expect(open).not.toContain(SECRET_FD)
      const [line] = logLines(hub.stdout(), 'closed descriptors the hub inherited')
      expect(line).toMatchObject({ level: 20 })
      expect(line?.descriptors).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ fd: HOST_FD, target: expect.stringContaining('host-file') }),
          expect.objectContaining({
            fd: SECRET_FD,
            target: expect.stringContaining('secret-file'),
          }),
        ]),
      )
    })

    it('a published bundle run through the hub can neither write, read nor find them', async () => {
      const deployed = await call(v1('/projects/acme/shop/deployments'), {
        method: 'POST',
        token: alice,
        json: { stackVersion: '1.0.0' },
      })
      expect(deployed.status, deployed.text).toBe(201)
      const started = await call(v1('/projects/acme/shop/runs'), {
        method: 'POST',
        token: alice,
        json: { deployment: deployed.body.id },
      })
      expect(started.status, started.text).toBe(202)
      const ended = await eventually(
        async () => {
          const reply = await call(v1(`/projects/acme/shop/runs/${started.body.id}`), {
            token: alice,
          })
          return reply.body?.status === 'running' ? undefined : reply.body
        },
        'the run ends',
        60_000,
      )
      expect(ended.status, `${ended.error}\n${ended.log}`).toBe('succeeded')
      const outcome = await call(
        v1(`/projects/acme/shop/runs/${started.body.id}/artifacts/outcome.json`),
        {
          token: alice,
        },
      )
      files.expectUntouched(JSON.parse(outcome.text) as DescriptorOutcome, outcome.text + ended.log)
    }, 60_000)
  })
}

describe('svc-hub worker started with descriptors open (sqlite)', () => {
  it('closes them at start and logs which (debug)', async () => {
    const files = hostFiles()
    const hub = await startHub('sqlite')
    try {
      const worker = await hub.startWorker(DEBUG, files.descriptors)
      try {
        const open = openDescriptors(worker.pid)
        expect(open).not.toContain(HOST_FD)
        expect(open).not.toContain(SECRET_FD)
        const [line] = logLines(worker.stdout(), 'closed descriptors the hub inherited')
        expect(line?.descriptors).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ fd: HOST_FD }),
            expect.objectContaining({ fd: SECRET_FD }),
          ]),
        )
      } finally {
        await worker.stop()
      }
    } finally {
      await hub.dispose()
      files.close()
    }
  }, 60_000)
})

const DIST = fileURLToPath(new URL('../dist/runs/', import.meta.url))

/**
 * `runBundle` in a process of its own that holds the descriptors and never closed them (a
 * program that embeds the hub): the run's wrapper closes them before the bundle loads.
 */
function runInEmbedder(sandbox: 'bwrap' | 'unsafe-none', descriptors: Record<number, number>) {
  assertBuildFresh()
  const script = `
    import { runBundle } from ${JSON.stringify(`${DIST}runner.js`)}
    import { findSandbox } from ${JSON.stringify(`${DIST}sandbox-probe.js`)}
    const limits = { timeoutMs: 20000, memoryMb: 128, maxOutputBytes: 1 << 20 }
    const found = ${JSON.stringify(sandbox)} === 'bwrap'
      ? await findSandbox({ ...limits, sandbox: 'bwrap' })
      : { ok: true, sandbox: { kind: 'none' } }
    if (!found.ok) throw new Error(found.reason)
    const result = await runBundle({
      bundle: new TextEncoder().encode(process.argv[1]),
      document: '{}',
      protocol: 'oas',
      clientSettings: {},
      limits,
      sandbox: found.sandbox,
    })
    const outcome = result.ok ? result.artifacts.find((a) => a.path === 'outcome.json') : undefined
    process.stdout.write(JSON.stringify({ ...result, artifacts: undefined,
      outcome: outcome && new TextDecoder().decode(outcome.data) }))
  `
  const stdio: ('ignore' | 'pipe' | number)[] = ['ignore', 'pipe', 'pipe']
  for (const [at, fd] of Object.entries(descriptors)) {
    while (stdio.length < Number(at)) stdio.push('ignore')
    stdio[Number(at)] = fd
  }
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, DESCRIPTOR_BUNDLE], {
    stdio,
  })
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
  return new Promise<{ ok: boolean; reason?: string; log: string; outcome?: string }>(
    (resolve, reject) => {
      child.on('error', reject)
      child.on('close', (code) => {
        if (code !== 0) reject(new Error(`the embedder exited with ${code}: ${stderr}`))
        else resolve(JSON.parse(stdout))
      })
    },
  )
}

describe('runBundle in a process that holds descriptors open', () => {
  for (const sandbox of ['bwrap', 'unsafe-none'] as const) {
    it(`closes them in the run before the bundle loads (${sandbox})`, async () => {
      const files = hostFiles()
      try {
        const result = await runInEmbedder(sandbox, files.descriptors)
        expect(result.ok, `${result.reason}\n${result.log}`).toBe(true)
        files.expectUntouched(
          JSON.parse(result.outcome!) as DescriptorOutcome,
          JSON.stringify(result),
        )
      } finally {
        files.close()
      }
    }, 60_000)
  }
})
