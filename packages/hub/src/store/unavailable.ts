/**
 * The store could not serve a query: the database is unreachable, a connection broke, a statement
 * or a connection attempt timed out, or (SQLite) another process held the write lock past the busy
 * timeout. Nothing the request asked for is wrong and retrying later can work: the hub answers 503
 * `unavailable` with `Retry-After`, not 500. The dialects turn their engines' errors into this one.
 */
export class StoreUnavailable extends Error {
  override readonly name = 'StoreUnavailable'
  constructor(
    message: string,
    /** Busy: another writer held the store; lost: the connection or the server went away. */
    readonly reason: 'busy' | 'timeout' | 'lost',
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }

  /** How long a client should wait before trying again. */
  get retryAfterSeconds(): number {
    return this.reason === 'busy' ? 1 : 5
  }
}

/** The StoreUnavailable that `error` is or was caused by, if any. */
export function storeUnavailable(error: unknown): StoreUnavailable | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    if (e instanceof StoreUnavailable) return e
  }
  return undefined
}
