import type { StoreKind } from './databases.js'
import { eventually } from './poll.js'

/**
 * After another process changed a token (`svc-hub admin`, SQL): on SQLite the hub's next request
 * sees it (data_version); on PostgreSQL once the tokens trigger's notice reaches the hub, a few
 * milliseconds after the commit (docs/hub/running.md, "Token cache"). Waits until `probe` stops
 * answering 200, 2 s at most: under the cache's 5 s limit, so a hub that missed the notice fails.
 */
export async function afterTokenChange(
  kind: StoreKind,
  probe: () => Promise<{ status: number }>,
): Promise<void> {
  if (kind !== 'postgres') return
  await eventually(
    async () => ((await probe()).status === 200 ? undefined : true),
    'the hub to see the token change',
    2_000,
  )
}
