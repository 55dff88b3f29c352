import { Lru } from './lru.js'

/**
 * Tells whether a kept read may have changed: `version()` moves on every statement this process
 * sends that may change one (`mayChangeReads`) and on every change by another process, and is
 * undefined while that cannot be known (then nothing is cached).
 */
export type StoreChangeFeed = {
  version(): string | undefined
  close?(): Promise<void>
}

/** Statements this process sent that may have changed a kept read, as the driver counts them. */
export type WriteCount = { count: number }

/**
 * The tables whose rows the kept reads hold (a project route's account, membership, project,
 * stack and API): the ones migration 0012 puts a change trigger on.
 */
export const READ_TABLES = ['accounts', 'memberships', 'projects', 'stacks', 'apis'] as const

const NAMES_A_READ_TABLE = new RegExp(`\\b(?:${READ_TABLES.join('|')})\\b`, 'i')

/**
 * Whether a statement may change what a kept read says: anything but a select, except an
 * `insert`, `update`, `delete` or `with` whose text names none of {@link READ_TABLES}. No foreign
 * key cascades into those tables from another and no trigger writes them, so a statement that
 * does not name them leaves them as they were: the webhook queue's claims and outcomes, sessions
 * and rate-limit rows, written many times a second, then keep the reads. Transaction control
 * (`commit`) always counts, so that a read kept between a write and its commit is set aside.
 */
export function mayChangeReads(sql: string): boolean {
  if (/^\s*select\b/i.test(sql)) return false
  if (!/^\s*(?:insert|update|delete|with)\b/i.test(sql)) return true
  return NAMES_A_READ_TABLE.test(sql)
}

/** How long a read stays usable at most, whatever the feed says. */
export const READ_CACHE_TTL_MS = 5_000
/** Reads kept at most; past that the least recently used one goes. */
export const READ_CACHE_SIZE = 10_000

type Entry = { readonly value: unknown; readonly version: string; readonly readAt: number }

/**
 * The answers of one hot read, by key, used again only while nothing they hold has changed since
 * they were read (as tokens are in store/token-cache.ts, but coarser): any write to one of
 * {@link READ_TABLES}, here or in another process, sets every one aside. A read whose answer may
 * straddle a change is not kept.
 * Off (every read a query) until a feed is attached; only the store's own repositories use it,
 * never a transaction's, whose reads must see its own writes.
 */
export class ReadCache {
  readonly #entries: Lru<string, Entry>
  readonly #ttlMs: number
  #feed: StoreChangeFeed | undefined

  constructor(options: { ttlMs?: number; size?: number } = {}) {
    this.#ttlMs = options.ttlMs ?? READ_CACHE_TTL_MS
    this.#entries = new Lru(options.size ?? READ_CACHE_SIZE)
  }

  attach(feed: StoreChangeFeed | undefined): void {
    this.#feed = feed
    this.#entries.clear()
  }

  async close(): Promise<void> {
    const feed = this.#feed
    this.attach(undefined)
    await feed?.close?.()
  }

  /**
   * The answer of `read()` for `key`: kept from an earlier read while nothing changed since.
   * One cache holds one kind of read: a key always stands for the same `read`.
   */
  async read<V>(key: string, read: () => Promise<V>): Promise<V> {
    const version = this.#feed?.version()
    if (version === undefined) return read()
    const entry = this.#entries.get(key)
    if (entry !== undefined) {
      if (entry.version === version && Date.now() - entry.readAt < this.#ttlMs) {
        return entry.value as V
      }
      this.#entries.delete(key)
    }
    const value = await read()
    if (this.#feed?.version() !== version) return value
    this.#entries.set(key, { value, version, readAt: Date.now() })
    return value
  }
}
