import type { Logger } from 'pino'
import type { Store } from '../store/store.js'
import type { Limit } from './limiter.js'
import { routeKey } from './table.js'

type Snapshot = {
  readonly readAt: number
  /** Org id → route key → the org's limit. */
  readonly byOrg: ReadonlyMap<string, ReadonlyMap<string, Limit>>
  /** Handles of the organisations that have overrides → their ids. */
  readonly orgIds: ReadonlyMap<string, string>
}

/** Membership answers kept at most; past that the cache starts again (a scan of many handles). */
const MAX_MEMBERSHIPS = 10_000

/**
 * The organisations' overrides as this process knows them: the whole table, read again when
 * older than `ttlMs` (the table is small: organisations × routes), so that an override made by
 * another process (`svc-hub admin set-rate-limit`, another hub) applies within `ttlMs` without
 * a restart, and a request for an organisation without overrides costs no query.
 */
export class OverrideCache {
  readonly #store: Store
  readonly #ttlMs: number
  readonly #log: Logger
  #snapshot: Snapshot | undefined
  #reading: Promise<Snapshot> | undefined
  /** Bumped by `invalidate`, so that a read begun before a change does not become current. */
  #generation = 0
  readonly #members = new Map<string, { readAt: number; member: boolean }>()

  constructor(store: Store, ttlMs: number, log: Logger) {
    this.#store = store
    this.#ttlMs = ttlMs
    this.#log = log
  }

  /** The override of `route` for the organisation `orgId`, if it has one. */
  async limitOf(
    orgId: string,
    route: { method: string; path: string },
  ): Promise<Limit | undefined> {
    return (await this.#current()).byOrg.get(orgId)?.get(routeKey(route))
  }

  /** Every override of `orgId`, by route key. */
  async of(orgId: string): Promise<ReadonlyMap<string, Limit>> {
    return (await this.#current()).byOrg.get(orgId) ?? new Map()
  }

  /**
   * The organisation a PAT user acts for on a route whose path names the account `handle`:
   * that account when it is an organisation with overrides and the user is a member of it.
   */
  async orgFor(handle: string, userId: string): Promise<string | undefined> {
    const orgId = (await this.#current()).orgIds.get(handle)
    if (!orgId) return undefined
    const key = `${orgId} ${userId}`
    const known = this.#members.get(key)
    if (known && this.#fresh(known.readAt)) return known.member ? orgId : undefined
    const member = (await this.#store.accounts.roleOf(orgId, userId)) !== undefined
    if (this.#members.size >= MAX_MEMBERSHIPS) this.#members.clear()
    this.#members.set(key, { readAt: Date.now(), member })
    return member ? orgId : undefined
  }

  /** Forgets what was read, so the next request reads the overrides again (after a change here). */
  invalidate(): void {
    this.#snapshot = undefined
    this.#reading = undefined
    this.#generation++
    this.#members.clear()
  }

  async #current(): Promise<Snapshot> {
    if (this.#snapshot && this.#fresh(this.#snapshot.readAt)) return this.#snapshot
    if (!this.#reading) {
      const reading = this.#read().finally(() => {
        if (this.#reading === reading) this.#reading = undefined
      })
      this.#reading = reading
    }
    return this.#reading
  }

  async #read(): Promise<Snapshot> {
    const readAt = Date.now()
    const generation = this.#generation
    try {
      const rows = await this.#store.rateLimits.listAll()
      const byOrg = new Map<string, Map<string, Limit>>()
      const orgIds = new Map<string, string>()
      for (const row of rows) {
        orgIds.set(row.orgHandle, row.orgId)
        let limits = byOrg.get(row.orgId)
        if (!limits) byOrg.set(row.orgId, (limits = new Map()))
        limits.set(routeKey(row), { max: row.max, windowSeconds: row.windowSeconds })
      }
      const snapshot = { readAt, byOrg, orgIds }
      if (generation === this.#generation) this.#snapshot = snapshot
      return snapshot
    } catch (error) {
      // The store is down: keep limiting with what was last read (the defaults at worst); the
      // request itself fails on its own if it needs the store.
      this.#log.warn({ err: error }, 'rate limit overrides not readable; using the last ones read')
      return this.#snapshot ?? { readAt, byOrg: new Map(), orgIds: new Map() }
    }
  }

  #fresh(readAt: number): boolean {
    return Date.now() - readAt < this.#ttlMs
  }
}
