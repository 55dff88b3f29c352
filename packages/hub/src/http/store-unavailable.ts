import { ApiError, unavailable } from '../errors/index.js'
import type { Store } from '../store/store.js'

const PING_TIMEOUT_MS = 2_000

/**
 * Runs `work`; when it fails and the store does not answer a ping either, the failure is the
 * store's: 503 `unavailable` (the caller can retry) instead of a 500. An `ApiError` passes
 * through untouched, and so does any failure while the store answers (a bug: 500).
 */
export async function whileStoreAnswers<T>(store: Store, work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof ApiError) throw error
    const down = await store.ping(PING_TIMEOUT_MS).then(
      () => false,
      () => true,
    )
    if (!down) throw error
    throw unavailable({ retryAfterSeconds: 5 })
  }
}
