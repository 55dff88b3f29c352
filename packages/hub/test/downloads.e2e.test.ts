import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startHub, type HubProcess } from './support/hub-process.js'
import { call } from './support/http.js'
import { rawRequest } from './support/raw-http.js'
import { WebSession } from './support/web-session.js'

const { version } = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
) as { version: string }
const TARBALL = `svc-cli-${version}.tgz`
const SECRET = `secret-${randomBytes(8).toString('hex')}`

/**
 * `/downloads/svc-cli.tgz` (docs/api/downloads.md): the CLI of the hub's version, read from
 * `SVC_HUB_DOWNLOADS_DIR`, to anyone, with its ETag and caching; nothing else under /downloads,
 * and never a file outside that folder. `/healthz` says the version, `/install` the lines.
 */
describe('downloads', () => {
  let hub: HubProcess
  let dir: string
  let bytes: Buffer
  const get = (path: string, init: RequestInit & { token?: string } = {}) =>
    call(`${hub.url}${path}`, init)
  const raw = (method: string, path: string, headers: Record<string, string> = {}) =>
    rawRequest(hub.url, {
      method,
      path,
      headers,
      body: Buffer.alloc(0),
      framing: { kind: 'length' },
    })
  const place = (content: Buffer) => {
    // Renamed into place, as the build does.
    writeFileSync(join(dir, `.${TARBALL}.part`), content)
    renameSync(join(dir, `.${TARBALL}.part`), join(dir, TARBALL))
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-downloads-'))
    bytes = randomBytes(300_000)
    place(bytes)
    // A secret beside the folder: no path may reach it.
    writeFileSync(join(dir, '..', `${dir.split('/').pop()}-secret.txt`), SECRET)
    writeFileSync(join(dir, 'notes.txt'), 'not a download')
    hub = await startHub('sqlite', { env: { SVC_HUB_DOWNLOADS_DIR: dir } })
  })
  afterAll(async () => {
    await hub?.dispose()
    rmSync(`${dir}-secret.txt`, { force: true })
    rmSync(dir, { recursive: true, force: true })
  })

  it('/healthz says the hub’s version', async () => {
    expect((await get('/healthz')).body).toEqual({ status: 'ok', version })
  })

  it('serves svc-cli.tgz and svc-cli-<version>.tgz to anyone, with type, ETag and caching', async () => {
    const etag = `"${createHash('sha256').update(bytes).digest('hex')}"`
    for (const [name, cache] of [
      ['svc-cli.tgz', 'public, no-cache'],
      [TARBALL, 'public, max-age=31536000, immutable'],
    ] as const) {
      for (const token of [undefined, 'svc_pat_not-a-token']) {
        const response = await fetch(`${hub.url}/downloads/${name}`, {
          headers: token ? { authorization: `Bearer ${token}` } : {},
        })
        expect(response.status, name).toBe(200)
        expect(response.headers.get('content-type')).toBe('application/gzip')
        expect(response.headers.get('etag')).toBe(etag)
        expect(response.headers.get('cache-control')).toBe(cache)
        expect(response.headers.get('content-length')).toBe(String(bytes.length))
        expect(response.headers.get('content-disposition')).toBe(
          `attachment; filename="${TARBALL}"`,
        )
        expect(response.headers.get('x-content-type-options')).toBe('nosniff')
        expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true)
      }
    }
  })

  it('HEAD answers the headers without the body; If-None-Match answers 304', async () => {
    const head = await raw('HEAD', '/downloads/svc-cli.tgz')
    expect(head.status).toBe(200)
    if (head.status === undefined) throw new Error('no answer')
    expect(head.headers).toMatch(/^content-type: application\/gzip$/im)
    expect(head.headers).toMatch(new RegExp(`^content-length: ${bytes.length}$`, 'im'))
    expect(head.body).toBe('')

    const etag = (await fetch(`${hub.url}/downloads/${TARBALL}`, { method: 'HEAD' })).headers.get(
      'etag',
    )!
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await fetch(`${hub.url}/downloads/svc-cli.tgz`, {
        headers: { 'if-none-match': header },
      })
      expect(again.status, header).toBe(304)
      expect(again.headers.get('etag')).toBe(etag)
      expect(await again.text()).toBe('')
    }
    const changed = await fetch(`${hub.url}/downloads/svc-cli.tgz`, {
      headers: { 'if-none-match': '"other"' },
    })
    expect(changed.status).toBe(200)
    await changed.arrayBuffer()
  })

  it('a new tarball in the folder is served at once, under a new ETag', async () => {
    const before = (await fetch(`${hub.url}/downloads/svc-cli.tgz`, { method: 'HEAD' })).headers
    const next = randomBytes(1000)
    place(next)
    try {
      const response = await fetch(`${hub.url}/downloads/svc-cli.tgz`)
      expect(Buffer.from(await response.arrayBuffer()).equals(next)).toBe(true)
      expect(response.headers.get('etag')).not.toBe(before.get('etag'))
    } finally {
      place(bytes)
    }
  })

  it('another version is 404, naming the version this hub serves', async () => {
    for (const other of [
      'svc-cli-0.0.1.tgz',
      'svc-cli-99.0.0.tgz',
      `svc-cli-${version}-rc.1.tgz`,
    ]) {
      const answer = await get(`/downloads/${other}`)
      expect(answer.status, other).toBe(404)
      expect(answer.body).toMatchObject({ code: 'not_found' })
      expect(answer.body.message).toContain(`/downloads/${TARBALL}`)
    }
  })

  it('nothing else under /downloads, and no path leaves the folder', async () => {
    const secret = `${dir.split('/').pop()}-secret.txt`
    for (const path of [
      '/downloads/notes.txt',
      '/downloads/',
      '/downloads',
      '/downloads/a/b',
      `/downloads/..%2F${secret}`,
      `/downloads/%2e%2e%2f${secret}`,
      `/downloads/..%5C${secret}`,
      '/downloads/svc-cli.tgz%00.txt',
      `/downloads/svc-cli.tgz/..%2F..%2F${secret}`,
      `/downloads/${'x'.repeat(5000)}`,
    ]) {
      const answer = await get(path)
      expect(answer.status, path).toBe(404)
      expect(answer.body, path).toMatchObject({ code: 'not_found' })
      expect(answer.text).not.toContain(SECRET)
    }
    // Sent as they are, without a client normalising the dots.
    for (const path of [
      `/downloads/../${secret}`,
      `/downloads/../../package.json`,
      '/downloads/./notes.txt',
    ]) {
      const answer = await raw('GET', path)
      expect(answer.status, path).not.toBe(200)
      if (answer.status !== undefined) expect(answer.body).not.toContain(SECRET)
    }
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const answer = await get('/downloads/svc-cli.tgz', { method })
      expect(answer.status, method).toBe(404)
      expect(answer.body).toMatchObject({ code: 'not_found' })
    }
    expect((await get('/healthz')).status).toBe(200)
  })

  it('the description at /v1/openapi.json has the route, without a token', async () => {
    const { paths } = (await get('/v1/openapi.json')).body
    expect(paths['/downloads/{file}'].get).toMatchObject({
      tags: ['downloads'],
      security: [],
      responses: { 200: { content: { 'application/gzip': {} } }, 404: {} },
    })
  })

  it('/install shows the lines that install from this hub, to anyone', async () => {
    const page = await get('/install')
    expect(page.status).toBe(200)
    const origin = `http://localhost:${new URL(hub.url).port}`
    expect(page.text).toContain(`npm i -D ${origin}/downloads/${TARBALL}`)
    expect(page.text).toContain(`npm i -g ${origin}/downloads/svc-cli.tgz`)
    expect(page.text).toContain(`npx --yes --package ${origin}/downloads/svc-cli.tgz svc`)
    expect(page.text).not.toContain('data-testid="not-built"')

    const alice = new WebSession(hub.url)
    await alice.signUp('alice')
    const home = await alice.get('/')
    expect(/data-testid="install"[\s\S]*?<\/section>/.exec(home.text)?.[0]).toContain(
      `npm i -D ${origin}/downloads/${TARBALL}`,
    )
    expect((await get('/')).text).toContain('href="/install"')
  })

  it('a missing tarball is 404 saying how to build it, and /install says so too', async () => {
    rmSync(join(dir, TARBALL))
    try {
      for (const name of ['svc-cli.tgz', TARBALL]) {
        const answer = await get(`/downloads/${name}`)
        expect(answer.status).toBe(404)
        expect(answer.body).toMatchObject({ code: 'not_found' })
        expect(answer.body.message).toContain('npm run build')
        expect(answer.body.message).toContain('SVC_HUB_DOWNLOADS_DIR')
        expect(answer.body.message).not.toContain(dir)
      }
      expect((await get('/install')).text).toContain('data-testid="not-built"')
      expect(hub.stdout()).toContain('the CLI tarball is missing')
    } finally {
      place(bytes)
    }
    expect((await get('/downloads/svc-cli.tgz')).status).toBe(200)
  })
})
