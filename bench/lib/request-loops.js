// Requests sent one after another by a few clients, each timed: latencies around an event.
import http from 'node:http'

/**
 * Starts `clients` loops, each sending `GET path` to `base` (with `token` as a Bearer PAT) as
 * soon as its last one is answered, on kept-alive connections, until `stop()`. Every request is
 * recorded as `{ at, ms, status }` (`at`: performance.now() when it was sent; status 0: no
 * answer). `stop()` answers the records once the loops have ended.
 */
export function startRequestLoops({ base, path, token, clients = 1 }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients })
  const records = []
  let stopped = false
  const one = () =>
    new Promise((resolve) => {
      const at = performance.now()
      const request = http.get(
        new URL(path, base),
        { agent, headers: token ? { authorization: `Bearer ${token}` } : {} },
        (response) => {
          response.resume()
          response.on('end', () =>
            resolve({ at, ms: performance.now() - at, status: response.statusCode }),
          )
        },
      )
      request.on('error', () => resolve({ at, ms: performance.now() - at, status: 0 }))
    })
  const loops = Array.from({ length: clients }, async () => {
    while (!stopped) records.push(await one())
  })
  return {
    records,
    stop: async () => {
      stopped = true
      await Promise.all(loops)
      agent.destroy()
      return records
    },
  }
}

/** Count, p50, p99 and max of the `ms` of `records`, and their statuses. */
export function latencies(records, percentile) {
  const ms = records.map((r) => r.ms)
  const statuses = {}
  for (const r of records) statuses[r.status] = (statuses[r.status] ?? 0) + 1
  return {
    count: records.length,
    p50: percentile(ms, 50),
    p99: percentile(ms, 99),
    max: ms.length ? Math.max(...ms) : null,
    statuses,
  }
}
