// The raw baseline of bench/webhooks.js: signed CloudEvent POSTs from one Node process to the
// receiver, as fast as it answers, with a fixed number in flight on a keep-alive agent.
// Usage: node bench/lib/webhook-sender.js <job.json>, where the job is
//   { url, secrets: [...], sample: "<a CloudEvent body>", count, warmup, concurrency }
// Request i goes to `${url}/w/${i % secrets.length}`, signed with that webhook's secret like the
// hub signs (`signWebhook`: HMAC-SHA256 over `t.body`), its body the sample with a new `id` and
// `time` (same length: `evt_` + 24 hex, an ISO date). After the warm-up requests it resets the
// receiver's counts. Prints one JSON line:
//   { count, ms, cpuMs, rate, failed, statuses }
import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import http from 'node:http'
import { CONTENT_TYPE, SIGNATURE_HEADER, signWebhook, USER_AGENT } from '@svc/webhooks'

const job = JSON.parse(await readFile(process.argv[2], 'utf8'))
const template = JSON.parse(job.sample)
const agent = new http.Agent({ keepAlive: true, maxSockets: job.concurrency })
const target = new URL(job.url)

function body() {
  // Spread, not mutated: the key order (and so the size) stays the sample's.
  return JSON.stringify({
    ...template,
    id: `evt_${randomBytes(12).toString('hex')}`,
    time: new Date().toISOString(),
  })
}

function post(index) {
  const text = body()
  const secret = job.secrets[index % job.secrets.length]
  return new Promise((resolve) => {
    const request = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: 'POST',
        path: `/w/${index % job.secrets.length}`,
        agent,
        headers: {
          'content-type': CONTENT_TYPE,
          'user-agent': USER_AGENT,
          'content-length': Buffer.byteLength(text),
          [SIGNATURE_HEADER]: signWebhook(secret, text),
        },
      },
      (response) => {
        // Drained, not read: the hub does not read a 2xx body either.
        response.resume()
        response.on('end', () => resolve(response.statusCode))
        response.on('error', () => resolve('error'))
      },
    )
    request.on('error', () => resolve('error'))
    request.end(text)
  })
}

/** `count` requests, `job.concurrency` at a time; answers the statuses by count. */
async function run(count, first) {
  const statuses = {}
  let next = 0
  async function lane() {
    while (next < count) {
      const status = await post(first + next++)
      statuses[status] = (statuses[status] ?? 0) + 1
    }
  }
  await Promise.all(Array.from({ length: Math.min(job.concurrency, count) }, lane))
  return statuses
}

if (job.warmup > 0) {
  await run(job.warmup, 0)
  // The receiver counts the measured requests only.
  await fetch(new URL('/control/reset', target), { method: 'POST' }).then((r) => r.arrayBuffer())
}
const started = performance.now()
const cpu = process.cpuUsage()
const statuses = await run(job.count, job.warmup)
const ms = performance.now() - started
const used = process.cpuUsage(cpu)
const failed = Object.entries(statuses)
  .filter(([status]) => !/^2\d\d$/.test(status))
  .reduce((sum, [, n]) => sum + n, 0)
agent.destroy()
process.stdout.write(
  `${JSON.stringify({
    count: job.count,
    ms,
    cpuMs: (used.user + used.system) / 1000,
    rate: (job.count / ms) * 1000,
    failed,
    statuses,
  })}\n`,
)
