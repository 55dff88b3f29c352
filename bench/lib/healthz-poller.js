// A `/healthz` poller on a thread of its own, so that whatever the bench's main thread does
// (building and sending a 28 MB body) never delays a probe. Open loop: a probe is due every
// `intervalMs` whether or not the earlier ones were answered, and its latency runs from when it was
// due to the end of its answer, so a stall of the hub's event loop counts for every probe that
// fell into it, as it would for a load balancer's health checks.
//   const poller = startPoller(url, { intervalMs: 5 })
//   ... work ...
//   const latencies = await poller.stop() // milliseconds, one per probe
import http from 'node:http'
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'

/** Starts polling `${url}/healthz`; `stop()` answers every probe's latency in milliseconds. */
export function startPoller(url, { intervalMs = 5 } = {}) {
  const worker = new Worker(new URL(import.meta.url), { workerData: { url, intervalMs } })
  const started = new Promise((resolve, reject) => {
    worker.once('message', resolve)
    worker.once('error', reject)
  })
  return {
    started,
    async stop() {
      await started
      const result = new Promise((resolve, reject) => {
        worker.once('message', resolve)
        worker.once('error', reject)
      })
      worker.postMessage('stop')
      const { latencies, failures } = await result
      await worker.terminate()
      if (failures.length > 0)
        throw new Error(`/healthz failed: ${failures.slice(0, 3).join('; ')}`)
      return latencies
    },
  }
}

function poll({ url, intervalMs }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 })
  const target = new URL('/healthz', url)
  const latencies = []
  const failures = []
  let outstanding = 0
  let stopping
  const probe = () => {
    const due = performance.now()
    outstanding++
    const done = (failure) => {
      if (failure) failures.push(failure)
      else latencies.push(performance.now() - due)
      if (--outstanding === 0 && stopping) stopping()
    }
    const request = http.get(target, { agent }, (response) => {
      response.resume()
      response.on('end', () =>
        done(response.statusCode === 200 ? undefined : `status ${response.statusCode}`),
      )
      response.on('error', (error) => done(error.message))
    })
    request.on('error', (error) => done(error.message))
  }
  // Probes are due on a fixed grid; slots the poller's own thread missed are skipped, not fired
  // all at once when it runs again.
  const start = performance.now()
  let slot = 0
  let timer
  const schedule = () => {
    slot = Math.max(slot + 1, Math.ceil((performance.now() - start) / intervalMs))
    timer = setTimeout(
      () => {
        probe()
        schedule()
      },
      Math.max(0, start + slot * intervalMs - performance.now()),
    )
  }
  schedule()
  parentPort.postMessage('started')
  parentPort.once('message', () => {
    clearTimeout(timer)
    const finish = () => {
      agent.destroy()
      parentPort.postMessage({ latencies, failures })
    }
    if (outstanding === 0) finish()
    else stopping = finish
  })
}

if (!isMainThread && workerData?.url) poll(workerData)
