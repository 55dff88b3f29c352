import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  bigBundle,
  fakeServerJs,
  ENV_BUNDLE,
  FLOOD_BUNDLE,
  HANG_BUNDLE,
  MEMORY_BUNDLE,
  PETSTORE,
  realServerJs,
  SILENT_BUNDLE,
} from '../../test/support/stack-bundles.js'
import { eventually } from '../../test/support/poll.js'
import { alive, descendants, type ProcessInfo } from '../../test/support/processes.js'
import type { RunLimits } from '../config.js'
import { CHILD_ENV } from './node-args.js'
import { runBundle, type RunInput, type RunResult } from './runner.js'
import { findSandbox } from './sandbox-probe.js'
import type { Sandbox } from './sandbox.js'

const LIMITS: RunLimits = { timeoutMs: 60_000, memoryMb: 256, maxOutputBytes: 50 * 1024 * 1024 }
const PETSTORE_TEXT = readFileSync(PETSTORE, 'utf8')
let sandbox: Sandbox

beforeAll(async () => {
  const found = await findSandbox({ ...LIMITS, sandbox: 'bwrap' })
  if (!found.ok) throw new Error(`runs need bubblewrap here: ${found.reason}`)
  sandbox = found.sandbox
})

function input(bundle: string, change: Partial<RunInput> = {}): RunInput {
  return {
    bundle: new TextEncoder().encode(bundle),
    document: PETSTORE_TEXT,
    protocol: 'oas',
    clientSettings: {},
    limits: LIMITS,
    sandbox,
    ...change,
  }
}

function text(result: RunResult, path: string): string {
  if (!result.ok) throw new Error(`the run failed: ${result.reason}\n${result.log}`)
  const file = result.artifacts.find((a) => a.path === path)
  if (!file) throw new Error(`no artifact ${path}`)
  return new TextDecoder().decode(file.data)
}

/** Descendants of this worker from before the test: other test files' when workers are shared. */
let before = new Set<number>()

/** The processes of runs this test started (`realServerJs()` is done before any run). */
function runProcesses(): ProcessInfo[] {
  return descendants().filter((p) => !before.has(p.pid) && alive(p.pid))
}

describe('runBundle', () => {
  let serverJs: string
  beforeEach(() => {
    before = new Set(descendants().map((p) => p.pid))
  })
  beforeAll(() => {
    serverJs = realServerJs()
  }, 180_000)

  it('runs a real published server.js and answers its artifacts and manifest', async () => {
    const result = await runBundle(
      input(serverJs, {
        clientSettings: {
          enrichments: { 'gen-zod': { Pet: { main: { bogus: true } } }, 'gen-nope': {} },
        },
      }),
    )
    if (!result.ok) throw new Error(`${result.reason}\n${result.log}`)
    const paths = result.artifacts.map((a) => a.path).sort()
    expect(paths).toEqual(['types.ts', 'zod.ts'])
    expect(text(result, 'types.ts')).toContain('Pet')
    for (const artifact of result.artifacts) {
      expect(artifact.size).toBe(artifact.data.byteLength)
      expect(artifact.sha256).toMatch(/^[0-9a-f]{64}$/)
    }
    expect(result.manifest).toHaveProperty('parseIssues')
    expect(result.manifest).toHaveProperty('enrichmentWarnings')
    expect(JSON.stringify(result.manifest.enrichmentWarnings)).toContain('gen-nope')
    expect(result.log).toContain('"msg":"listening"')
  }, 60_000)

  it('a document the bundle cannot read fails the run with what the bundle said', async () => {
    const result = await runBundle(input(serverJs, { document: 'not an API at all: [' }))
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.reason).toMatch(/^server\.js answered 422 invalid_schema:/)
  }, 60_000)

  it('the bundle sees none of the host, reads only its folder and temp, and starts no process or worker', async () => {
    const outside = join(mkdtempSync(join(tmpdir(), 'svc-run-outside-')), 'hub.db')
    writeFileSync(outside, 'the hub store')
    const tries = {
      // Not in the sandbox at all.
      hubFile: `require('node:fs').readFileSync(${JSON.stringify(outside)}, 'utf8')`,
      // In the sandbox, outside the folder: Node's permission model refuses it.
      proc: `require('node:fs').readFileSync('/proc/self/status', 'utf8')`,
      write: `require('node:fs').writeFileSync('out.txt', 'x')`,
      temp: `require('node:fs').writeFileSync('/tmp/scratch.txt', 'x'); require('node:fs').readFileSync('/tmp/scratch.txt')`,
      spawn: `require('node:child_process').execSync('id')`,
      worker: `new (require('node:worker_threads').Worker)('1', { eval: true })`,
    }
    const bundle = fakeServerJs(`
      const outcome = {}
      for (const [name, code] of Object.entries(${JSON.stringify(tries)})) {
        try { eval(code); outcome[name] = 'allowed' } catch (error) { outcome[name] = error.code }
      }
      return { artifacts: { 'outcome.json': JSON.stringify(outcome) }, manifest: {} }
    `)
    const result = await runBundle(input(bundle))
    expect(JSON.parse(text(result, 'outcome.json'))).toEqual({
      hubFile: 'ENOENT',
      proc: 'ERR_ACCESS_DENIED',
      write: 'ERR_ACCESS_DENIED',
      temp: 'allowed',
      spawn: 'ERR_ACCESS_DENIED',
      worker: 'ERR_ACCESS_DENIED',
    })
    rmSync(dirname(outside), { recursive: true, force: true })
  })

  it('the child has only PORT, HOST and NODE_ENV: nothing of the parent, a folder of its own', async () => {
    process.env.SVC_RUNNER_CANARY = 'canary-value-7f3a'
    try {
      const result = await runBundle(input(ENV_BUNDLE, { clientSettings: { skip: ['/pets'] } }))
      const env = JSON.parse(text(result, 'env.json')) as Record<string, string>
      expect(env).toEqual({ ...CHILD_ENV })
      expect(JSON.stringify(env)).not.toContain('canary-value-7f3a')
      expect(JSON.parse(text(result, 'cwd.json'))).toEqual({ cwd: '/bundle', files: ['server.js'] })
      // What the runner sent: the document inline and the settings.
      expect(JSON.parse(text(result, 'request.json'))).toEqual({
        schema: PETSTORE_TEXT,
        protocol: 'oas',
        clientSettings: { skip: ['/pets'] },
      })
    } finally {
      delete process.env.SVC_RUNNER_CANARY
    }
  })

  it('a bundle that never answers is killed at the time limit, with every process of its sandbox', async () => {
    const running = runBundle(input(HANG_BUNDLE, { limits: { ...LIMITS, timeoutMs: 1500 } }))
    // bwrap outside, its init and the bundle's Node inside.
    const processes = await eventually(() => {
      const found = runProcesses()
      return found.length >= 3 ? found : undefined
    }, 'the run starts')
    const result = await running
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.reason).toBe('server.js did not finish within the time limit (1500 ms).')
    // Killed when the run ends; the ones inside are reaped by the kernel a moment later.
    await eventually(
      () => (processes.some((p) => alive(p.pid)) ? undefined : true),
      () => `the run's processes end: ${JSON.stringify(processes.filter((p) => alive(p.pid)))}`,
    )
  })

  it('a bundle that never listens is killed at the time limit', async () => {
    const result = await runBundle(input(SILENT_BUNDLE, { limits: { ...LIMITS, timeoutMs: 1000 } }))
    expect(result).toMatchObject({
      ok: false,
      reason: 'server.js did not finish within the time limit (1 s).',
    })
  })

  it('a bundle that allocates too much dies on the memory limit, and the run says so', async () => {
    const result = await runBundle(input(MEMORY_BUNDLE, { limits: { ...LIMITS, memoryMb: 64 } }))
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.reason).toBe('server.js ran out of memory (the limit is 64 MB).')
    expect(result.log).toMatch(/heap/i)
  }, 60_000)

  it('an answer larger than the output limit fails the run', async () => {
    const result = await runBundle(
      input(bigBundle(200_000), { limits: { ...LIMITS, maxOutputBytes: 100_000 } }),
    )
    expect(result).toMatchObject({
      ok: false,
      reason: "server.js answered more than 100000 bytes, the hub's limit.",
    })
  })

  it('hostile answers fail the run with a storable reason: unsafe paths, NUL and lone surrogates', async () => {
    const unsafe = await runBundle(
      input(fakeServerJs("return { artifacts: { '../escape.ts': 'x' }, manifest: {} }")),
    )
    expect(unsafe).toMatchObject({
      ok: false,
      reason: 'server.js answered an artifact path the hub refuses: "../escape.ts".',
    })
    const nul = await runBundle(
      input(
        fakeServerJs(`
          res.writeHead(418, { 'content-type': 'application/json' })
          res.end(JSON.stringify({ error: 'teapot', message: 'a\\u0000b \\ud800 c' }))
        `),
      ),
    )
    expect(nul).toMatchObject({ ok: false, reason: 'server.js answered 418 teapot: ab \ufffd c' })
    const many = await runBundle(
      input(
        fakeServerJs(`
          const artifacts = {}
          for (let i = 0; i <= 10000; i++) artifacts['f' + i + '.ts'] = ''
          return { artifacts, manifest: {} }
        `),
      ),
    )
    expect(many).toMatchObject({
      ok: false,
      reason: 'server.js answered 10001 artifacts; the hub keeps at most 10000.',
    })
  })

  it('a bundle that is not JavaScript fails before it listens', async () => {
    const result = await runBundle(input('this is not javascript ((('))
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.reason).toMatch(/^server\.js exited \(code 1\) before it answered\.$/)
    expect(result.log).toContain('SyntaxError')
  })

  it('the hub stopping ends the run, and its folder is removed', async () => {
    const controller = new AbortController()
    const running = runBundle(input(HANG_BUNDLE, { signal: controller.signal }))
    const dir = await eventually(
      () => runProcesses().find((p) => p.cwd?.startsWith(join(tmpdir(), 'svc-run-')))?.cwd,
      'the run starts',
    )
    expect(existsSync(join(dir, 'server.js'))).toBe(true)
    controller.abort()
    expect(await running).toMatchObject({ ok: false, reason: 'The hub stopped during the run.' })
    expect(existsSync(dir)).toBe(false)
    await eventually(
      () => (runProcesses().length > 0 ? undefined : true),
      "the run's processes end",
    )
  })

  it('a bundle that prints without end is killed at the output limit', async () => {
    const result = await runBundle(
      input(FLOOD_BUNDLE, { limits: { ...LIMITS, maxOutputBytes: 100_000 } }),
    )
    expect(result).toMatchObject({
      ok: false,
      reason: "server.js printed more than 100000 bytes, the hub's limit.",
    })
  })
})

describe('runBundle without a sandbox (SVC_HUB_RUN_SANDBOX=unsafe-none)', () => {
  it('runs a real published server.js the same way', async () => {
    const result = await runBundle(input(realServerJs(), { sandbox: { kind: 'none' } }))
    expect(text(result, 'types.ts')).toContain('Pet')
  }, 180_000)
})
