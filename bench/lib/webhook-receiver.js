// A loopback webhook receiver for bench/webhooks.js, in its own process: node:http with
// keep-alive, every request verified over its raw body with `verifyWebhook` from @svc/webhooks and
// answered 204 (400 when it does not verify). Listens on PORT (0: a free port) and HOST and prints
// {"msg":"listening","url":…} like the hub.
//
// Deliveries go to `/w/<i>`: webhook i, verified with secret i. What it records per delivery: when
// it came (Date.now() once the body is read), the event `id`, the webhook and the event's `time`.
// The bench drives it over HTTP, on the same server:
//   PUT  /control/secrets      JSON array: the secret of each webhook index; also resets
//   POST /control/reset        forgets what came so far
//   GET  /control/wait?count=N&timeoutMs=T   answers once N deliveries are settled (verified
//                              first arrivals + failed verifications), or after T ms
//   GET  /control/stats        what came since the last reset (see `stats()`)
import http from 'node:http'
import { SIGNATURE_HEADER, verifyWebhook } from '@svc/webhooks'

const PREFIX = '/w/'
/** Kept alive longer than the hub's idle sockets live (safe-fetch drops them after 4 s). */
const KEEP_ALIVE_MS = 30_000

let secrets = []
let state = fresh()
const waiters = new Set()

function fresh() {
  return {
    cpu: process.cpuUsage(),
    /** `${webhook}|${eventId}` of every verified delivery seen. */
    seen: new Set(),
    /** Per first arrival: received-at − event `time`, ms. */
    latencies: [],
    firstReceivedAt: null,
    lastReceivedAt: null,
    minEventTime: null,
    maxEventTime: null,
    events: new Set(),
    duplicates: 0,
    errors: 0,
    errorSamples: [],
    bodyBytes: { min: null, max: null },
    sample: null,
  }
}

function settled() {
  return state.latencies.length + state.errors
}

function wakeWaiters() {
  for (const waiter of waiters) waiter()
}

function fail(reason) {
  state.errors++
  if (state.errorSamples.length < 5) state.errorSamples.push(reason.slice(0, 300))
  wakeWaiters()
}

function deliver(request, response, body, receivedAt) {
  const index = Number(request.url.slice(PREFIX.length))
  const secret = secrets[index]
  if (!Number.isInteger(index) || secret === undefined) {
    fail(`no secret for ${request.url}`)
    response.writeHead(400).end()
    return
  }
  let event
  try {
    event = verifyWebhook(body, request.headers[SIGNATURE_HEADER], secret)
  } catch (error) {
    fail(
      `${request.url}: ${error instanceof Error ? `${error.code ?? error.name}: ${error.message}` : error}`,
    )
    response.writeHead(400).end()
    return
  }
  response.writeHead(204).end()

  const key = `${index}|${event.id}`
  if (state.seen.has(key)) {
    state.duplicates++
    return
  }
  state.seen.add(key)
  state.events.add(event.id)
  const eventTime = Date.parse(event.time)
  state.latencies.push(receivedAt - eventTime)
  state.firstReceivedAt = Math.min(state.firstReceivedAt ?? receivedAt, receivedAt)
  state.lastReceivedAt = Math.max(state.lastReceivedAt ?? receivedAt, receivedAt)
  state.minEventTime = Math.min(state.minEventTime ?? eventTime, eventTime)
  state.maxEventTime = Math.max(state.maxEventTime ?? eventTime, eventTime)
  state.bodyBytes.min = Math.min(state.bodyBytes.min ?? body.length, body.length)
  state.bodyBytes.max = Math.max(state.bodyBytes.max ?? body.length, body.length)
  state.sample ??= body.toString('utf8')
  wakeWaiters()
}

function stats() {
  const cpu = process.cpuUsage(state.cpu)
  return {
    /** This process's CPU time since the last reset. */
    cpuMs: (cpu.user + cpu.system) / 1000,
    deliveries: state.latencies.length,
    events: state.events.size,
    latencies: state.latencies,
    firstReceivedAt: state.firstReceivedAt,
    lastReceivedAt: state.lastReceivedAt,
    minEventTime: state.minEventTime,
    maxEventTime: state.maxEventTime,
    duplicates: state.duplicates,
    errors: state.errors,
    errorSamples: state.errorSamples,
    bodyBytes: state.bodyBytes,
    sample: state.sample,
  }
}

function json(response, status, value) {
  const text = JSON.stringify(value)
  response.writeHead(status, { 'content-type': 'application/json' }).end(text)
}

function control(request, response, body) {
  const url = new URL(request.url, 'http://receiver')
  if (request.method === 'PUT' && url.pathname === '/control/secrets') {
    secrets = JSON.parse(body.toString('utf8'))
    state = fresh()
    return json(response, 200, { secrets: secrets.length })
  }
  if (request.method === 'POST' && url.pathname === '/control/reset') {
    state = fresh()
    return json(response, 200, {})
  }
  if (request.method === 'GET' && url.pathname === '/control/stats') {
    return json(response, 200, stats())
  }
  if (request.method === 'GET' && url.pathname === '/control/wait') {
    const count = Number(url.searchParams.get('count'))
    const timeoutMs = Number(url.searchParams.get('timeoutMs') ?? 60_000)
    const answer = (done) => {
      waiters.delete(check)
      clearTimeout(timer)
      json(response, 200, { done, settled: settled(), deliveries: state.latencies.length })
    }
    const check = () => {
      if (settled() >= count) answer(true)
    }
    const timer = setTimeout(() => answer(false), timeoutMs)
    waiters.add(check)
    check()
    return
  }
  json(response, 404, { error: `no ${request.method} ${url.pathname}` })
}

const server = http.createServer((request, response) => {
  const chunks = []
  request.on('data', (chunk) => chunks.push(chunk))
  request.on('end', () => {
    const receivedAt = Date.now()
    const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)
    if (request.url.startsWith(PREFIX)) deliver(request, response, body, receivedAt)
    else control(request, response, body)
  })
})
server.keepAliveTimeout = KEEP_ALIVE_MS
server.headersTimeout = KEEP_ALIVE_MS + 1000
server.listen(Number(process.env.PORT || 0), process.env.HOST || '127.0.0.1', () => {
  const { address, port } = server.address()
  process.stdout.write(
    `${JSON.stringify({ msg: 'listening', url: `http://${address}:${port}` })}\n`,
  )
})

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    server.close(() => process.exit(0))
    server.closeAllConnections?.()
  })
}
