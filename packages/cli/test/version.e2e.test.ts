import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppRoot } from './support/app-root.js'
import {
  closedOrigin,
  createHome,
  htmlErrorServer,
  silentServer,
  type Home,
} from './support/hub.js'
import { parseJsonStdout, runSvc, runSvcProcess } from './support/run-svc.js'

/*
 * `svc --version` and `svc doctor` against hubs of another version (docs/install.md). The hubs are
 * stand-ins on loopback that answer /healthz as a hub of that version would: the real hub always
 * says its own version, the CLI's (downloads.e2e.test.ts and install.e2e.test.ts run it).
 */

const { version } = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
) as { version: string }

type StandIn = { origin: string; requests(): number; close(): Promise<void> }

/** An HTTP server on loopback whose `/healthz` answers `body`, as a hub would. */
async function standIn(body: unknown): Promise<StandIn> {
  let count = 0
  const server: Server = createServer((request, response) => {
    count++
    if (request.url !== '/healthz') {
      response.writeHead(404).end()
      return
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    requests: () => count,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

let h: Home
let newer: StandIn
let same: StandIn
let unversioned: StandIn
const closers: (() => Promise<void>)[] = []

beforeAll(async () => {
  h = createHome()
  newer = await standIn({ status: 'ok', version: '9.9.9' })
  same = await standIn({ status: 'ok', version })
  unversioned = await standIn({ status: 'ok' })
  closers.push(newer.close, same.close, unversioned.close)
})
afterAll(async () => {
  for (const close of closers) await close()
  h?.dispose()
})

const mismatch = (origin: string) =>
  `note: svc ${version} does not match the hub at ${origin} (9.9.9); install its CLI: npm i -D ${origin}/downloads/svc-cli-9.9.9.tgz\n`

describe('svc --version', () => {
  it('prints the version alone when no hub is configured, asking none', async () => {
    const run = await runSvc(['--version'], { env: h.env })
    expect(run).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' })
    const short = await runSvc(['-V'], { env: h.env })
    expect(short).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' })
  })

  it('names the install from a hub ($SVC_API_ORIGIN) of another version, in one line on stderr', async () => {
    const run = await runSvc(['--version'], { env: { ...h.env, SVC_API_ORIGIN: newer.origin } })
    expect(run).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: mismatch(newer.origin) })
  })

  it('asks the hub of the login too', async () => {
    const home = createHome()
    try {
      home.writeLogin({ host: newer.origin, token: 'svc_pat_x' })
      const run = await runSvc(['--version'], { env: home.env })
      expect(run).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: mismatch(newer.origin) })
    } finally {
      home.dispose()
    }
  })

  it('the real bin says the same, and exits 0', async () => {
    const run = await runSvcProcess(['--version'], {
      env: { ...h.env, SVC_API_ORIGIN: newer.origin },
    })
    expect(run).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: mismatch(newer.origin) })
  })

  it('adds nothing for a hub of the same version, or one that does not say', async () => {
    for (const hub of [same, unversioned]) {
      const before = hub.requests()
      const run = await runSvc(['--version'], { env: { ...h.env, SVC_API_ORIGIN: hub.origin } })
      expect(run).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' })
      expect(hub.requests()).toBe(before + 1)
    }
  })

  it('a hub that is away, silent, broken or not a URL changes nothing', async () => {
    const silent = await silentServer()
    const html = await htmlErrorServer()
    closers.push(silent.close, html.close)
    for (const origin of [await closedOrigin(), silent.origin, html.origin, 'not a url']) {
      const run = await runSvc(['--version'], { env: { ...h.env, SVC_API_ORIGIN: origin } })
      expect(run, origin).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' })
    }
    expect(silent.connections()).toBeGreaterThan(0)
    expect(html.requests()).toBe(1)
  })

  it("a command's own --version is not the CLI's", async () => {
    const run = await runSvc(['publish', '--version', '1.0.0', '--json'], {
      cwd: createAppRoot().dir,
      env: { ...h.env, SVC_API_ORIGIN: newer.origin },
    })
    expect(run.stdout).not.toBe(`${version}\n`)
    expect(run.stderr).not.toContain('does not match the hub')
  })
})

describe('svc doctor', () => {
  const doctor = async (origin: string) => {
    const run = await runSvc(['doctor', '--json'], { env: { ...h.env, SVC_API_ORIGIN: origin } })
    const checks = parseJsonStdout(run).checks as { id: string }[]
    return { run, check: checks.find((check) => check.id === 'hub-version') }
  }

  it('warns that the CLI and the hub differ, with the install as the fix', async () => {
    const { run, check } = await doctor(newer.origin)
    expect(run.code).toBe(0)
    expect(check).toEqual({
      id: 'hub-version',
      status: 'warning',
      message: `svc ${version} does not match the hub at ${newer.origin} (9.9.9)`,
      hint: `npm i -D ${newer.origin}/downloads/svc-cli-9.9.9.tgz`,
      data: { cli: version, hub: '9.9.9' },
    })
  })

  it('says they agree, and says nothing of a hub that does not tell its version', async () => {
    expect((await doctor(same.origin)).check).toEqual({
      id: 'hub-version',
      status: 'ok',
      message: `svc and the hub are both ${version}`,
      data: { cli: version, hub: version },
    })
    expect((await doctor(unversioned.origin)).check).toBeUndefined()
    expect((await doctor(await closedOrigin())).check).toBeUndefined()
  })
})
