import { spawn } from 'node:child_process'
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll } from 'vitest'
import { createAppRoot } from '../../../cli/test/support/app-root.js'
import { assertBuilt, REPO_ROOT } from '../../../cli/test/support/run-svc.js'

export { REPO_ROOT }
export const PETSTORE_3 = join(
  REPO_ROOT,
  'node_modules/@readme/oas-examples/3.0/json/petstore.json',
)
export const PETSTORE_2 = join(
  REPO_ROOT,
  'node_modules/@readme/oas-examples/2.0/json/petstore.json',
)
export const GENERATORS = ['gen-typescript', 'gen-zod', 'gen-fetch-client', 'gen-graphql-client']

const folders: string[] = []
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })))

/**
 * Builds the stack server with the real `svc` bin (`svc init demo`, `svc install` the four
 * official generators, `svc bundle demo --server`), and copies `server.js` alone into a new empty
 * folder of the system's temporary directory, where no `node_modules` can be found above it.
 * Returns the path of that copy.
 */
export async function buildServerJs(): Promise<string> {
  assertBuilt()
  // The bundle takes @svc/stack-server and @svc/safe-fetch from their dist builds.
  for (const pkg of ['stack-server', 'safe-fetch']) assertDistFresh(pkg)
  const root = createAppRoot()
  for (const args of [
    ['init', 'demo'],
    ['install', ...GENERATORS],
    ['bundle', 'demo', '--server'],
  ]) {
    const run = await root.svc(args)
    if (run.code !== 0) throw new Error(`svc ${args.join(' ')} exited ${run.code}:\n${run.stderr}`)
  }
  const folder = mkdtempSync(join(tmpdir(), 'svc-stack-server-'))
  folders.push(folder)
  for (let dir = folder; dirname(dir) !== dir; dir = dirname(dir))
    if (existsSync(join(dir, 'node_modules')))
      throw new Error(`${dir} has a node_modules: server.js would not run alone`)
  const serverJs = join(folder, 'server.js')
  copyFileSync(join(root.dir, '.svc/demo/server.js'), serverJs)
  return serverJs
}

/** A JSON body as the tests read it: whatever the server sent. */
export type Json = any

export type Answer = { readonly status: number; readonly headers: Headers; readonly body: Json }

export type Exit = { readonly code: number | null; readonly signal: NodeJS.Signals | null }

export type StackServer = {
  readonly port: number
  /** The first line it printed, parsed. */
  readonly listening: Record<string, unknown>
  /** `http://127.0.0.1:<port><path>`. */
  url(path: string): string
  get(path: string): Promise<Answer>
  /** POSTs `body` as JSON. */
  post(path: string, body: unknown): Promise<Answer>
  send(path: string, init: RequestInit): Promise<Answer>
  readonly stdout: string
  readonly stderr: string
  /** Sends `signal` (default SIGTERM), unless it has exited, and resolves when it has. */
  stop(signal?: NodeJS.Signals): Promise<Exit>
}

/**
 * Runs `node server.js` in its folder with only PATH, `PORT=0`, `HOST=127.0.0.1` and `env`,
 * and resolves once it printed its first line, `{"msg":"listening",…,"port":N}`.
 */
export async function startServerJs(
  serverJs: string,
  env: Readonly<Record<string, string>> = {},
): Promise<StackServer> {
  const child = spawn(process.execPath, [serverJs], {
    cwd: dirname(serverJs),
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const exited = new Promise<Exit>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  )
  const listening = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const onData = () => {
      const newline = stdout.indexOf('\n')
      if (newline === -1) return
      child.stdout.off('data', onData)
      try {
        resolve(JSON.parse(stdout.slice(0, newline)) as Record<string, unknown>)
      } catch {
        reject(new Error(`server.js's first line is not JSON: ${stdout.slice(0, newline)}`))
      }
    }
    child.stdout.on('data', onData)
    void exited.then(({ code, signal }) =>
      reject(new Error(`server.js exited (${code ?? signal}) before listening:\n${stderr}`)),
    )
  })
  const port = listening.port
  if (listening.msg !== 'listening' || typeof port !== 'number' || !(port > 0)) {
    child.kill('SIGKILL')
    throw new Error(`server.js did not report the port it listens on: ${JSON.stringify(listening)}`)
  }
  const url = (path: string) => `http://127.0.0.1:${port}${path}`
  const send = async (path: string, init: RequestInit): Promise<Answer> => {
    const response = await fetch(url(path), init)
    const text = await response.text()
    const json = response.headers.get('content-type')?.includes('application/json')
    return {
      status: response.status,
      headers: response.headers,
      body: json ? JSON.parse(text) : text,
    }
  }
  return {
    port,
    listening,
    url,
    get: (path) => send(path, {}),
    post: (path, body) =>
      send(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    send,
    get stdout() {
      return stdout
    },
    get stderr() {
      return stderr
    },
    stop: (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      return exited
    },
  }
}

/** A package's dist must be newer than its sources (tests excluded), or the bundle tests old code. */
function assertDistFresh(pkg: string): void {
  const root = join(REPO_ROOT, 'packages', pkg)
  const built = join(root, 'dist', '.tsbuildinfo')
  if (!existsSync(built)) throw new Error(`packages/${pkg} is not built; run npx tsc -b first.`)
  const src = join(root, 'src')
  for (const name of readdirSync(src, { recursive: true, encoding: 'utf8' })) {
    if (!name.endsWith('.ts') || name.endsWith('.test.ts')) continue
    if (statSync(join(src, name)).mtimeMs > statSync(built).mtimeMs)
      throw new Error(`packages/${pkg}/dist is older than src/${name}; run npx tsc -b first.`)
  }
}
