import { createHash } from 'node:crypto'
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer as createHttpServer } from 'node:http'
import { createServer as createTcpServer, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { seedPeople, type People } from '../../../hub/test/support/fixtures.js'
import type { StoreKind } from '../../../hub/test/support/databases.js'
import { startHub, type HubProcess } from '../../../hub/test/support/hub-process.js'
import { call, manifest, publishForm, type Reply } from '../../../hub/test/support/http.js'
import { parseJsonStdout, type SvcRun } from './run-svc.js'

export { runSvcOpenStdin } from './run-svc.js'

export type { People } from '../../../hub/test/support/fixtures.js'

/**
 * The real `svc-hub serve` (SQLite, free loopback port) with the users of the hub's own tests:
 * alice (owner of the org acme), walt (writer), rita (reader), nora (not a member), each with a
 * PAT holding read, write:releases, write:projects and write:apis.
 */
export type TestHub = {
  readonly hub: HubProcess
  readonly url: string
  readonly people: People
  /** `GET <url><path>` with a token (alice's by default), parsed. */
  get(path: string, token?: string): Promise<Reply>
  /**
   * How many requests the hub has logged, for one method and path prefix if given, once its log
   * has settled: a request's line can reach the pipe after its answer reached the client.
   */
  requests(filter?: { method?: string; path?: string }): Promise<number>
  /**
   * Creates the hub project `@account/slug` the way the web app would: a stack
   * `@account/<slug>-stack` (published over HTTP), an API `account/<slug>-api`, then the project.
   */
  createProject(account: string, slug: string): Promise<void>
  /** The paths of the base files the hub stores for a project, read from its store. */
  baseFiles(account: string, slug: string): Promise<string[]>
  dispose(): Promise<void>
}

export async function startTestHub(
  options: { env?: NodeJS.ProcessEnv; store?: StoreKind } = {},
): Promise<TestHub> {
  const hub = await startHub(options.store ?? 'sqlite', options)
  const people = await seedPeople(hub)
  const ok = (reply: Reply, what: string) => {
    if (reply.status !== 201) throw new Error(`${what}: HTTP ${reply.status} ${reply.text}`)
  }
  return {
    hub,
    url: hub.url,
    people,
    get: (path, token = people.alice) => call(`${hub.url}${path}`, { token }),
    requests: (filter = {}) => settled(() => logged(hub.stdout(), filter)),
    createProject: async (account, slug) => {
      ok(
        await call(`${hub.url}/v1/stacks/${account}/${slug}-stack/versions`, {
          method: 'POST',
          token: people.alice,
          body: publishForm({
            version: '1.0.0',
            bundle: 'export {}',
            files: [manifest(`@${account}/${slug}-stack`)],
          }),
        }),
        'publish the stack',
      )
      ok(
        await call(`${hub.url}/v1/apis`, {
          method: 'POST',
          token: people.alice,
          json: { owner: account, slug: `${slug}-api`, name: slug },
        }),
        'create the API',
      )
      ok(
        await call(`${hub.url}/v1/projects`, {
          method: 'POST',
          token: people.alice,
          json: {
            account,
            slug,
            stack: `@${account}/${slug}-stack`,
            api: `${account}/${slug}-api`,
          },
        }),
        'create the project',
      )
    },
    baseFiles: async (account, slug) => {
      const store = await hub.openStore()
      try {
        const row = await store.projects.find(account, slug)
        if (!row) throw new Error(`no project ${account}/${slug}`)
        return (await store.projects.baseFiles(row.id)).map((file) => file.path)
      } finally {
        await store.close()
      }
    },
    dispose: () => hub.dispose(),
  }
}

/**
 * A temporary HOME for `svc`, and the environment that makes it the only source of a login:
 * no XDG_CONFIG_HOME, no SVC_HUB_TOKEN, no SVC_API_ORIGIN from the environment of the tests.
 */
export function createHome() {
  const dir = mkdtempSync(join(tmpdir(), 'svc-home-'))
  const loginFile = join(dir, '.config', 'svc', 'login.json')
  return {
    dir,
    loginFile,
    env: {
      HOME: dir,
      XDG_CONFIG_HOME: undefined,
      SVC_HUB_TOKEN: undefined,
      SVC_API_ORIGIN: undefined,
    } as Record<string, string | undefined>,
    /** Writes a login file as `svc login` would, for a host `svc login` could not check. */
    writeLogin(login: { host: string; token: string }) {
      mkdirSync(dirname(loginFile), { recursive: true, mode: 0o700 })
      writeFileSync(loginFile, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600 })
      chmodSync(loginFile, 0o600)
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  }
}

export type Home = ReturnType<typeof createHome>

type Closable = { readonly origin: string; close(): Promise<void> }

function listen(server: Server, sockets: Set<Socket>): Promise<string> {
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      if (address === null || typeof address === 'string') return reject(new Error('no port'))
      resolve(`http://127.0.0.1:${address.port}`)
    })
  })
}

function closer(server: Server, sockets: Set<Socket>): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      for (const socket of sockets) socket.destroy()
      server.close(() => resolve())
    })
}

/** A TCP server that counts the connections it gets and drops each one: proof of "no network". */
export async function countingServer(): Promise<Closable & { connections(): number }> {
  let count = 0
  const sockets = new Set<Socket>()
  const server = createTcpServer((socket) => {
    count++
    socket.destroy()
  })
  const origin = await listen(server, sockets)
  return { origin, connections: () => count, close: closer(server, sockets) }
}

/** A TCP server that accepts connections and never answers. */
export async function silentServer(): Promise<Closable & { connections(): number }> {
  let count = 0
  const sockets = new Set<Socket>()
  const server = createTcpServer(() => void count++)
  const origin = await listen(server, sockets)
  return { origin, connections: () => count, close: closer(server, sockets) }
}

/** The requests a hub's log lines record, for one method and path prefix if given. */
function logged(stdout: string, filter: { method?: string; path?: string }): number {
  return stdout
    .split('\n')
    .filter((line) => line.includes('"msg":"request"'))
    .map((line) => JSON.parse(line) as { method: string; path: string })
    .filter(
      (entry) =>
        (filter.method === undefined || entry.method === filter.method) &&
        (filter.path === undefined || entry.path.startsWith(filter.path)),
    ).length
}

/** A count once it has stopped changing for 300 ms (at most 5 s): the log has caught up. */
async function settled(count: () => number): Promise<number> {
  let last = count()
  let stableSince = Date.now()
  for (const started = Date.now(); Date.now() - started < 5_000;) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    const now = count()
    if (now !== last) [last, stableSince] = [now, Date.now()]
    else if (Date.now() - stableSince >= 300) break
  }
  return last
}

/** An HTTP server that answers every request 500 with an HTML page, as a broken proxy would. */
export async function htmlErrorServer(): Promise<Closable & { requests(): number }> {
  let count = 0
  const sockets = new Set<Socket>()
  const server = createHttpServer((request, response) => {
    count++
    request.resume()
    request.on('end', () => {
      response.writeHead(500, { 'content-type': 'text/html' })
      response.end('<html><body><h1>500 Internal Server Error</h1></body></html>\n')
    })
  })
  const origin = await listen(server, sockets)
  return { origin, requests: () => count, close: closer(server, sockets) }
}

/** The origin of a loopback port that was just closed: nothing listens there. */
export async function closedOrigin(): Promise<string> {
  const server = createTcpServer()
  const sockets = new Set<Socket>()
  const origin = await listen(server, sockets)
  await closer(server, sockets)()
  return origin
}

/** `--json` output: exactly one JSON object on stdout, and no colour on either stream. */
export function oneJson(run: SvcRun): Record<string, any> {
  if (run.stdout.includes('\u001b[') || run.stderr.includes('\u001b['))
    throw new Error(`colour codes in the output of a --json run:\n${run.stdout}\n${run.stderr}`)
  return parseJsonStdout(run) as Record<string, any>
}

/**
 * The JSON failure of a publish or push, exactly (SPEC §4.9): exit 1, one
 * `{ type: 'failed', projectName, reason, stage }` object, and no stack trace on stderr.
 */
export function failed(run: SvcRun, stage: string, reason: string | RegExp): string {
  if (run.code !== 1) throw new Error(`expected exit 1, got ${run.code}:\n${run.stderr}`)
  const json = oneJson(run)
  const keys = Object.keys(json).sort().join(',')
  if (
    keys !== 'projectName,reason,stage,type' ||
    json.type !== 'failed' ||
    json.projectName !== 'demo' ||
    json.stage !== stage
  )
    throw new Error(`expected the ${stage} failure of demo, got ${run.stdout}`)
  const matches =
    typeof reason === 'string' ? json.reason.includes(reason) : reason.test(json.reason)
  if (!matches) throw new Error(`the reason '${json.reason}' does not match ${String(reason)}`)
  if (/\n\s+at /.test(run.stderr)) throw new Error(`a stack trace on stderr:\n${run.stderr}`)
  return json.reason as string
}

export function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex')
}

export function sha256File(path: string): string {
  return sha256(readFileSync(path))
}
