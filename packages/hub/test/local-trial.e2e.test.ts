import { request } from 'node:http'
import { connect } from 'node:net'
import { networkInterfaces } from 'node:os'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { oasJson } from './support/documents.js'
import { call, type Reply } from './support/http.js'
import { startHub, type HubProcess } from './support/hub-process.js'
import { eventually } from './support/poll.js'
import { startReceiver, type Receiver } from './support/receiver.js'
import { expectStoreUnchanged } from './support/store-snapshot.js'
import { WebSession } from './support/web-session.js'

/**
 * A first hour on the hub `npm start` runs: it listens on loopback only, and while its public
 * URL is a loopback one too it is a local trial whose outbound guard admits loopback webhook
 * receivers. Any other hub keeps the guard strict and names the setting that would admit one.
 */

const hubs: HubProcess[] = []
const receivers: Receiver[] = []
afterEach(async () => {
  for (const hub of hubs.splice(0)) await hub.dispose()
})
afterAll(async () => {
  for (const receiver of receivers) await receiver.close()
})

/** The real `svc-hub serve` with `env` (HOST unset unless given: the default bind). */
async function hub(env: NodeJS.ProcessEnv = {}, reuse?: HubProcess): Promise<HubProcess> {
  const started = await startHub('sqlite', {
    env: { HOST: '', ...env },
    ...(reuse ? { reuse } : {}),
  })
  hubs.push(started)
  return started
}

async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const started = await startReceiver(...args)
  receivers.push(started)
  return started
}

/** The JSON log lines of `hub` whose `msg` starts with `prefix`. */
function logged(hub: HubProcess, prefix: string): Record<string, unknown>[] {
  return hub
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => typeof line.msg === 'string' && line.msg.startsWith(prefix))
}

/** Creates the API `admin/<slug>` with the admin's token. */
async function newApi(h: HubProcess, slug: string): Promise<void> {
  const created = await call(`${h.url}/v1/apis`, {
    method: 'POST',
    token: h.adminPat,
    json: { owner: 'admin', slug, name: slug },
  })
  expect(created.status, created.text).toBe(201)
}

const createHook = (h: HubProcess, slug: string, url: string): Promise<Reply> =>
  call(`${h.url}/v1/apis/admin/${slug}/webhooks`, {
    method: 'POST',
    token: h.adminPat,
    json: { url },
  })

/** Sends a test event to the webhook and waits until its delivery is no longer pending. */
async function testDelivery(h: HubProcess, slug: string, id: string) {
  const queued = await call(`${h.url}/v1/apis/admin/${slug}/webhooks/${id}/test`, {
    method: 'POST',
    token: h.adminPat,
  })
  expect(queued.status, queued.text).toBe(202)
  const path = `${h.url}/v1/apis/admin/${slug}/webhooks/${id}/deliveries/${queued.body.id}`
  return eventually(async () => {
    const reply = await call(path, { token: h.adminPat })
    return reply.body.state === 'pending' ? undefined : reply.body
  }, 'the test delivery to finish')
}

/** A non-loopback IPv4 address of this machine, if it has one. */
function otherAddress(): string | undefined {
  for (const addresses of Object.values(networkInterfaces()))
    for (const address of addresses ?? [])
      if (address.family === 'IPv4' && !address.internal) return address.address
  return undefined
}

/** Whether a TCP connection to `host:port` is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port })
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

describe('the default hub: loopback only, a local trial', () => {
  it('binds 127.0.0.1 when HOST is unset, and says its guard is in local-trial mode', async () => {
    const h = await hub()
    const [listening] = logged(h, 'listening')
    expect(listening!.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const port = Number(new URL(h.url).port)
    const other = otherAddress()
    if (other !== undefined) expect(await accepts(other, port)).toBe(false)
    expect(await accepts('127.0.0.1', port)).toBe(true)
    expect(logged(h, 'outbound guard')).toEqual([
      expect.objectContaining({ mode: 'local-trial', allow: 'loopback', msg: 'outbound guard' }),
    ])
  })

  it('delivers a webhook to a loopback receiver, by address and as localhost, with no setting', async () => {
    const h = await hub()
    const target = await receiver()
    await newApi(h, 'trial')
    const port = new URL(target.origin).port
    for (const url of [`${target.origin}/hook`, `http://localhost:${port}/by-name`]) {
      const created = await createHook(h, 'trial', url)
      expect(created.status, created.text).toBe(201)
      const delivery = await testDelivery(h, 'trial', created.body.id)
      expect(delivery.state, JSON.stringify(delivery)).toBe('succeeded')
    }
    expect(target.received.map((r) => r.path)).toEqual(['/hook', '/by-name'])
  })

  it('still refuses private targets that are not loopback', async () => {
    const h = await hub()
    await newApi(h, 'private')
    for (const url of ['http://10.0.0.1/hook', 'http://169.254.169.254/', 'http://printer.local/'])
      expect((await createHook(h, 'private', url)).body.code, url).toBe('url_refused')
  })
})

describe('a hub that is not a local trial: the guard is strict and names the setting', () => {
  it('a public SVC_HUB_PUBLIC_URL: a loopback receiver is refused with SVC_HUB_ALLOW_PRIVATE_NETWORKS in the answer', async () => {
    const h = await hub({ SVC_HUB_PUBLIC_URL: 'https://hub.example.com' })
    expect(logged(h, 'outbound guard')).toEqual([
      expect.objectContaining({ mode: 'strict', allow: 'none', msg: 'outbound guard' }),
    ])
    const target = await receiver()
    await newApi(h, 'strict')
    const byAddress = await createHook(h, 'strict', `${target.origin}/hook`)
    expect(byAddress.status).toBe(422)
    expect(byAddress.body).toMatchObject({
      code: 'url_refused',
      details: { reason: 'private_address', field: 'json.url' },
    })
    expect(byAddress.body.message).toBe(
      'The hub does not send requests to json.url: 127.0.0.1 is loopback; a hub that should reach it sets SVC_HUB_ALLOW_PRIVATE_NETWORKS=127.0.0.1/32 (docs/hub/running.md).',
    )
    const byName = await createHook(h, 'strict', 'http://localhost:9999/hook')
    expect(byName.body.message).toContain('SVC_HUB_ALLOW_PRIVATE_NETWORKS=http://localhost:9999')
    expect(target.connections()).toBe(0)
  })

  it('HOST=0.0.0.0 exposes the hub and makes the guard strict', async () => {
    const h = await hub({ HOST: '0.0.0.0' })
    expect(logged(h, 'listening')[0]!.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/)
    expect(logged(h, 'outbound guard')[0]).toMatchObject({ mode: 'strict' })
    const other = otherAddress()
    if (other !== undefined) expect(await accepts(other, Number(new URL(h.url).port))).toBe(true)
    await newApi(h, 'exposed')
    const refused = await createHook(h, 'exposed', 'http://127.0.0.1:9999/hook')
    expect(refused.body.message).toContain('SVC_HUB_ALLOW_PRIVATE_NETWORKS=127.0.0.1/32')
  })

  it('a delivery to a loopback receiver made on a local trial, then attempted by a strict hub, records the setting in its error', async () => {
    const trial = await hub()
    const target = await receiver()
    await newApi(trial, 'moved')
    const created = await createHook(trial, 'moved', `${target.origin}/hook`)
    expect(created.status, created.text).toBe(201)
    await trial.stop()
    const strict = await hub({ SVC_HUB_PUBLIC_URL: 'https://hub.example.com' }, trial)
    // The admin PAT was printed by the first start only.
    const moved = { ...strict, adminPat: trial.adminPat }
    const delivery = await testDelivery(moved, 'moved', created.body.id)
    expect(delivery.state).toBe('failed')
    expect(delivery.attempts[0].error).toBe(
      'private_address: 127.0.0.1 is loopback; a hub that should reach it sets SVC_HUB_ALLOW_PRIVATE_NETWORKS=127.0.0.1/32 (docs/hub/running.md)',
    )
    expect(target.connections()).toBe(0)
  })
})

/**
 * `method path` on `h` with the admin's token, a JSON body and `headers` as given (a proxy's, or a
 * `Host` other than the one dialled): over node:http, which sends any header as told.
 */
function send(
  h: HubProcess,
  method: string,
  path: string,
  headers: Record<string, string>,
  json?: unknown,
): Promise<{ status: number; body: any }> {
  const body = json === undefined ? undefined : JSON.stringify(json)
  return new Promise((resolve, reject) => {
    const req = request(
      `${h.url}${path}`,
      {
        method,
        agent: false,
        headers: {
          authorization: `Bearer ${h.adminPat}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
      },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => (text += chunk))
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }),
        )
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

/** What a request that came through a proxy carries; each alone ends the local trial for it. */
const THROUGH_A_PROXY: readonly Record<string, string>[] = [
  { 'x-forwarded-for': '198.51.100.7' },
  { forwarded: 'for=198.51.100.7;proto=https' },
  { 'x-real-ip': '198.51.100.7' },
  { via: '1.1 proxy.example' },
  { 'x-forwarded-host': 'hub.example.com' },
  { 'x-forwarded-proto': 'https' },
  { host: 'hub.example.com' },
]

describe('a local trial admits loopback targets only for requests straight from this machine', () => {
  it('refuses a loopback webhook, sourceUrl and refetch for a request through a proxy, and stores nothing', async () => {
    const h = await hub()
    const target = await receiver((r) =>
      r.path === '/openapi.json' ? { status: 200, body: oasJson(['get /pets']) } : { status: 204 },
    )
    await newApi(h, 'hooks')
    const direct = await createHook(h, 'hooks', `${target.origin}/hook`)
    expect(direct.status, direct.text).toBe(201)
    const source = await send(
      h,
      'POST',
      '/v1/apis',
      {},
      {
        owner: 'admin',
        slug: 'sourced',
        name: 'sourced',
        sourceUrl: `${target.origin}/openapi.json`,
      },
    )
    expect(source.status).toBe(201)

    const hooks = '/v1/apis/admin/hooks/webhooks'
    await expectStoreUnchanged(h, async () => {
      for (const headers of THROUGH_A_PROXY) {
        const what = JSON.stringify(headers)
        const byAddress = await send(h, 'POST', hooks, headers, { url: `${target.origin}/hook` })
        expect(byAddress.status, what).toBe(422)
        expect(byAddress.body, what).toMatchObject({
          code: 'url_refused',
          details: { reason: 'private_address', field: 'json.url' },
        })
        expect(byAddress.body.message).toContain('SVC_HUB_ALLOW_PRIVATE_NETWORKS=127.0.0.1/32')
        const byName = await send(h, 'POST', hooks, headers, { url: 'http://localhost:9/hook' })
        expect(byName.body.details?.reason, what).toBe('reserved_hostname')
        const moved = await send(h, 'PATCH', `${hooks}/${direct.body.id}`, headers, {
          url: `${target.origin}/elsewhere`,
        })
        expect(moved.body.code, what).toBe('url_refused')
        const api = await send(h, 'POST', '/v1/apis', headers, {
          owner: 'admin',
          slug: 'proxied',
          name: 'proxied',
          sourceUrl: `${target.origin}/openapi.json`,
        })
        expect(api.body.details, what).toMatchObject({ field: 'json.sourceUrl' })
        const refetch = await send(h, 'POST', '/v1/apis/admin/sourced/refetch', headers)
        expect(refetch.status, what).toBe(422)
        expect(refetch.body.details, what).toMatchObject({ reason: 'private_address' })
      }
    })
    expect(target.received.filter((r) => r.path === '/openapi.json')).toHaveLength(0)

    // The same requests straight from this machine still work.
    const refetched = await send(h, 'POST', '/v1/apis/admin/sourced/refetch', {})
    expect(refetched.status).toBe(201)
    const moved = await send(
      h,
      'PATCH',
      `${hooks}/${direct.body.id}`,
      {},
      {
        url: `${target.origin}/moved`,
      },
    )
    expect(moved.status).toBe(200)
  })

  it("the web app's webhook form through a proxy refuses a loopback receiver and does not offer one", async () => {
    const h = await hub()
    const target = await receiver()
    await new WebSession(h.url).signUp('dana')
    const local = new WebSession(h.url)
    await local.signIn('dana')
    await local.createApi('dana', 'hooks')
    const form = '/dana/apis/hooks/webhooks/new'
    expect((await local.get(form)).text).toContain('so loopback receivers are allowed')

    const proxied = new WebSession(h.url, { 'x-forwarded-for': '198.51.100.9' })
    await proxied.signIn('dana')
    const page = await proxied.get(form)
    expect(page.text).not.toContain('loopback receivers are allowed')
    const refused = await expectStoreUnchanged(h, () =>
      proxied.post(form, { url: `${target.origin}/hook`, active: 'on' }),
    )
    expect(refused.status).toBe(422)
    expect(refused.text).toContain('SVC_HUB_ALLOW_PRIVATE_NETWORKS=127.0.0.1/32')

    const saved = await local.submit(form, { url: `${target.origin}/hook`, active: 'on' })
    expect(saved.status, saved.text).toBe(303)
  })
})
