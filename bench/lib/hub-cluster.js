// Several hub processes on one store, as a scaled-out deployment runs them: `hubs` `svc-hub
// serve` (each on its own free loopback port) and `workers` `svc-hub worker`, all on one new
// PostgreSQL schema and with one environment (REDIS_URL and the rest), started at once on the
// empty schema so that their migrations and the first admin race as they would in production.
// Everything is stopped, and the schema and data directory removed, by `release` or on the way
// out (hub-runs.js's cleanup).
import { ADMIN_PAT, freshStore, HUB_BIN, hubEnv, onExit } from './hub-runs.js'
import { startServer } from './servers.js'

/**
 * Starts the cluster; answers `{ hubs, workers, env, schema, adminPat, release }`: `hubs` are
 * startServer's servers, `workers` `{ pid, stdout, stop }`, `adminPat` the one admin PAT printed
 * (by whichever hub made the admin), `admins` how many hubs printed one.
 */
export async function startCluster({
  hubs: hubCount,
  workers: workerCount,
  logLevel,
  env: extra = {},
  serveArgs = [],
}) {
  const store = await freshStore('postgres', 'svc-bench-scale-')
  const { schema } = store
  const env = { ...hubEnv(store, logLevel), ...extra }
  const started = await Promise.allSettled([
    ...Array.from({ length: hubCount }, (_, i) =>
      startServer({
        label: `svc-hub serve #${i + 1}`,
        args: [HUB_BIN, 'serve', ...serveArgs],
        env,
      }),
    ),
    ...Array.from({ length: workerCount }, (_, i) => startWorker(`svc-hub worker #${i + 1}`, env)),
  ])
  const stops = []
  for (const s of started) if (s.status === 'fulfilled') stops.push(onExit(() => s.value.stop()))
  const failed = started.find((s) => s.status === 'rejected')
  if (failed) throw failed.reason
  const all = started.map((s) => s.value)
  const hubs = all.slice(0, hubCount)
  const workers = all.slice(hubCount)
  const pats = hubs.map((hub) => ADMIN_PAT.exec(hub.stderr())?.[0]).filter(Boolean)
  return {
    hubs,
    workers,
    env,
    schema,
    adminPat: pats[0],
    admins: pats.length,
    /** Starts one more `svc-hub worker` on the same store and environment; stopped on release. */
    addWorker: async (label) => {
      const worker = await startWorker(label, env)
      stops.push(onExit(() => worker.stop()))
      return worker
    },
    /** Stops every process (answers their exit statuses), then removes the schema and data. */
    release: async () => {
      const statuses = await Promise.all(stops.map((stop) => stop()))
      await store.remove()
      return statuses
    },
  }
}

/** `svc-hub worker` with `env`, once it logs that it started. */
function startWorker(label, env) {
  return startServer({
    label,
    args: [HUB_BIN, 'worker'],
    env,
    readyWhen: (line) => (line.includes('"webhook worker started"') ? true : undefined),
  })
}
