import { Counter, Gauge, type Registry } from 'prom-client'
import type { Store } from '../store/store.js'

/**
 * Adds the store's lock waits to `registry`: queries that found another process's lock on the
 * SQLite file (`svc-hub admin`, a worker, a second hub, a backup tool), waiting now and in all.
 * Both stay 0 on PostgreSQL, whose waits are the server's.
 */
export function registerStoreMetrics(registry: Registry, store: Store): void {
  new Gauge({
    name: 'svc_hub_store_lock_waiting',
    help: 'Queries waiting now for a lock another process holds on the SQLite file (they fail with 503 at SVC_HUB_SQLITE_BUSY_TIMEOUT_MS)',
    registers: [registry],
    collect() {
      this.set(store.lockWaits.waiting)
    },
  })
  let counted = 0
  new Counter({
    name: 'svc_hub_store_lock_waits_total',
    help: 'Queries that found a lock another process held on the SQLite file, and waited for it',
    registers: [registry],
    collect() {
      this.inc(store.lockWaits.total - counted)
      counted = store.lockWaits.total
    },
  })
}
