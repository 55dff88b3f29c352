import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url))
const SVC_BIN = join(REPO_ROOT, 'packages/cli/bin/svc.js')

/** A document nobody here wrote. */
export const PETSTORE = join(REPO_ROOT, 'node_modules/@readme/oas-examples/3.0/json/petstore.json')

let built: string | undefined

/**
 * A real published-style `server.js`: `svc init demo`, `svc install gen-typescript gen-zod`,
 * `svc bundle demo --server` with the real CLI (built), once per test file.
 */
export function realServerJs(): string {
  if (built !== undefined) return built
  const scratch = join(REPO_ROOT, 'node_modules/.cache/svc-hub-runs/')
  mkdirSync(scratch, { recursive: true })
  const dir = mkdtempSync(scratch)
  try {
    for (const args of [
      ['init', 'demo'],
      ['install', 'gen-typescript', 'gen-zod'],
      ['bundle', 'demo', '--server'],
    ]) {
      const run = spawnSync(process.execPath, [SVC_BIN, ...args], {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
        timeout: 120_000,
      })
      if (run.status !== 0) throw new Error(`svc ${args.join(' ')} failed: ${run.stderr}`)
    }
    built = readFileSync(join(dir, '.svc/demo/server.js'), 'utf8')
    return built
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * A hand-written `server.js` that listens as the real one does (`{"msg":"listening","port"}` on
 * stdout) and answers `POST /artifacts` with `answer`, JavaScript run in the request handler
 * with `body` (the parsed request) in scope, which returns the response object.
 */
export function fakeServerJs(answer: string, options: { listen?: boolean } = {}): string {
  return `
const http = require('node:http')
const server = http.createServer((req, res) => {
  let text = ''
  req.on('data', (chunk) => (text += chunk))
  req.on('end', async () => {
    const body = JSON.parse(text || '{}')
    const value = await (async () => { ${answer} })()
    if (value === undefined) return
    const json = JSON.stringify(value)
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(json)
  })
})
${
  options.listen === false
    ? 'setInterval(() => {}, 1000)'
    : `server.listen(Number(process.env.PORT), process.env.HOST, () =>
  console.log(JSON.stringify({ msg: 'listening', port: server.address().port, pid: process.pid })))`
}
`
}

/** A bundle that answers what the child sees: its environment, cwd and the files there. */
export const ENV_BUNDLE = fakeServerJs(`
  const fs = require('node:fs')
  return {
    artifacts: {
      'env.json': JSON.stringify(process.env),
      'cwd.json': JSON.stringify({ cwd: process.cwd(), files: fs.readdirSync('.') }),
      'request.json': JSON.stringify(body),
    },
    manifest: { parseIssues: [], enrichmentWarnings: [] },
  }
`)

/** A bundle that listens and never answers. */
export const HANG_BUNDLE = fakeServerJs('return new Promise(() => {})')

/** A bundle that never says it listens. */
export const SILENT_BUNDLE = fakeServerJs('return {}', { listen: false })

/** A bundle that keeps allocating until its heap is full. */
export const MEMORY_BUNDLE = fakeServerJs(`
  const kept = []
  for (;;) kept.push(new Array(100000).fill({ n: kept.length }))
`)

/** A bundle whose answer is `bytes` long and more. */
export function bigBundle(bytes: number): string {
  return fakeServerJs(`return { artifacts: { 'big.txt': 'x'.repeat(${bytes}) }, manifest: {} }`)
}

/**
 * A bundle that answers one artifact, `outcome.json`: what `attempt` returns, JavaScript run in
 * the request handler with `code(fn)` (the error code `fn` throws, or `'allowed'`) and
 * `connect(options)` (the error code of a `net.connect`, or `'connected'`) in scope.
 */
export function outcomeBundle(attempt: string): string {
  return fakeServerJs(`
    const code = (run) => {
      try { run(); return 'allowed' } catch (error) { return error.code ?? error.message }
    }
    const connect = (options) => new Promise((resolve) => {
      const socket = require('node:net').connect(options)
      socket.on('connect', () => { socket.destroy(); resolve('connected') })
      socket.on('error', (error) => resolve(error.code))
    })
    const outcome = await (async () => { ${attempt} })()
    return { artifacts: { 'outcome.json': JSON.stringify(outcome) }, manifest: {} }
  `)
}

/** A bundle that loops forever once asked for its artifacts. */
export const LOOP_BUNDLE = fakeServerJs('for (;;) {}')

/** A bundle that writes 1 GiB to stdout, as fast as the pipe takes it, before it answers. */
export const FLOOD_BUNDLE = fakeServerJs(`
  const mib = 'x'.repeat(1024 * 1024)
  for (let i = 0; i < 1024; i++) {
    if (!process.stdout.write(mib)) await new Promise((drained) => process.stdout.once('drain', drained))
  }
  return { artifacts: {}, manifest: {} }
`)

/** A bundle that takes memory outside the V8 heap (Buffers) until it gets none, and says how much. */
export const BUFFER_BUNDLE = outcomeBundle(`
  const kept = []
  try {
    for (;;) kept.push(Buffer.alloc(32 * 1024 * 1024, 1))
  } catch (error) {
    return { mb: kept.length * 32, error: error.message }
  }
`)
