import type { TokenWithUser } from './accounts-repo.js'
import { Lru } from './lru.js'

/**
 * Tells when tokens may have changed outside this process: `version()` moves whenever another
 * process (a second hub, `svc-hub admin`, a hand-written SQL statement) may have changed one,
 * and is undefined while that cannot be known (then nothing is cached).
 */
export type TokenChangeFeed = {
  version(): number | undefined
  close(): Promise<void>
}

/** How long a token read stays usable at most, whatever the feed says. */
export const TOKEN_CACHE_TTL_MS = 5_000
/** Tokens kept at most; past that the least recently read one goes. */
export const TOKEN_CACHE_SIZE = 10_000

type Stamp = { readonly version: number; readonly local: number }
type Entry = { readonly row: TokenWithUser; readonly stamp: Stamp; readonly readAt: number }

/**
 * The tokens this process read lately, by hash, so that a request with a known PAT costs no
 * query (docs/hub/running.md, "Token cache"). An entry is used only while nothing may have
 * changed any token since it was read: no change in this process (`changed`), none told by the
 * feed, and for `TOKEN_CACHE_TTL_MS` at most. Only tokens that were found are kept, and the
 * caller judges a cached token as a fresh one (revoked, expired, its scopes), so a cache hit
 * answers exactly what the query would have. Off (every lookup a query) until a feed is attached.
 */
export class TokenCache {
  readonly #entries: Lru<string, Entry>
  /** Token id → the hash it is cached under (may outlive its entry: checked on use). */
  readonly #hashes = new Map<string, string>()
  readonly #ttlMs: number
  #feed: TokenChangeFeed | undefined
  /** Bumped by every change made through this process. */
  #local = 0

  constructor(options: { ttlMs?: number; size?: number } = {}) {
    this.#ttlMs = options.ttlMs ?? TOKEN_CACHE_TTL_MS
    this.#entries = new Lru(options.size ?? TOKEN_CACHE_SIZE)
  }

  /** Turns the cache on, trusting `feed` to tell of changes made elsewhere. */
  attach(feed: TokenChangeFeed): void {
    this.#feed = feed
    this.changed()
  }

  async close(): Promise<void> {
    const feed = this.#feed
    this.#feed = undefined
    this.changed()
    await feed?.close()
  }

  /** When a read begins: what its answer will be stamped with (undefined: not cached). */
  stamp(): Stamp | undefined {
    const version = this.#feed?.version()
    return version === undefined ? undefined : { version, local: this.#local }
  }

  /** The token with this hash as read since `now`'s stamp, if any. */
  get(hash: string, now: Stamp): TokenWithUser | undefined {
    const entry = this.#entries.get(hash)
    if (!entry) return undefined
    if (!same(entry.stamp, now) || Date.now() - entry.readAt >= this.#ttlMs) {
      this.#entries.delete(hash)
      this.#hashes.delete(entry.row.id)
      return undefined
    }
    return entry.row
  }

  /** Keeps `row`, read under `stamp`, unless something changed while it was read. */
  put(hash: string, row: TokenWithUser, stamp: Stamp): void {
    const now = this.stamp()
    if (!now || !same(stamp, now)) return
    const dropped = this.#entries.set(hash, { row, stamp, readAt: Date.now() })
    this.#hashes.set(row.id, hash)
    if (dropped) {
      const [oldest, { row: old }] = dropped
      if (this.#hashes.get(old.id) === oldest) this.#hashes.delete(old.id)
    }
  }

  /** A token's `last_used_at` was written by this process: the cached row says so too. */
  touched(id: string, at: string): void {
    const hash = this.#hashes.get(id)
    const entry = hash === undefined ? undefined : this.#entries.get(hash)
    if (hash === undefined || entry?.row.id !== id) return
    this.#entries.set(hash, { ...entry, row: { ...entry.row, last_used_at: at } })
  }

  /** A token changed through this process: nothing read before is used again. */
  changed(): void {
    this.#local++
    this.#entries.clear()
    this.#hashes.clear()
  }
}

function same(a: Stamp, b: Stamp): boolean {
  return a.version === b.version && a.local === b.local
}
