import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely'
import pg from 'pg'
import { mayChangeReads, type WriteCount } from '../read-cache.js'
import { StoreUnavailable } from '../unavailable.js'
import { isStalePlan, statementName } from './statement-names.js'

/**
 * SQLSTATE classes and codes that say the database, not the query, failed: connection exceptions
 * (08), operator intervention (57P0x: shutdown, cannot connect now), insufficient resources (53),
 * a statement cancelled by `statement_timeout` (57014), an idle transaction ended (25P03), and the
 * transient conflicts a retry resolves (40001 serialization, 40P01 deadlock, 55P03 lock timeout).
 */
const OUTAGE_CODES = /^(08|53|57P0)|^(57014|25P03|40001|40P01|55P03)$/
const BUSY_CODES = /^(40001|40P01|55P03)$/

/** Errors node-postgres and Node's sockets raise when the connection is gone or never came. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])
const CONNECTION_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|not queryable|Client was closed|Cannot use a pool after calling end/i

/** `error` as a StoreUnavailable when it is an outage of the database, else undefined. */
export function postgresOutage(error: unknown): StoreUnavailable | undefined {
  if (error instanceof StoreUnavailable) return error
  if (!(error instanceof Error)) return undefined
  const code = 'code' in error && typeof error.code === 'string' ? error.code : undefined
  if (error instanceof pg.DatabaseError) {
    if (!code || !OUTAGE_CODES.test(code)) return undefined
    const reason = BUSY_CODES.test(code) ? 'busy' : code === '57014' ? 'timeout' : 'lost'
    return new StoreUnavailable(`PostgreSQL: ${error.message} (${code})`, reason, { cause: error })
  }
  if ((code && CONNECTION_CODES.has(code)) || CONNECTION_MESSAGES.test(error.message)) {
    const reason = /timeout/i.test(error.message) || code === 'ETIMEDOUT' ? 'timeout' : 'lost'
    return new StoreUnavailable(`PostgreSQL: ${error.message}`, reason, { cause: error })
  }
  return undefined
}

/**
 * The pool kysely sees: every query has a client-side deadline (a partitioned network answers
 * nothing, so the server's `statement_timeout` never reaches us), outages come out as
 * StoreUnavailable, and a client that lost its connection or missed a deadline is destroyed on
 * release instead of going back to the pool.
 */
export function guardedPool(
  pool: pg.Pool,
  queryTimeoutMs: number,
  writes: WriteCount = { count: 0 },
): PostgresPool {
  // A connection that breaks while checked out emits 'error' on its client; node-postgres adds a
  // listener only while the client is idle, and an unheard 'error' ends the process. The query
  // using it fails on its own, so the event itself needs nothing more.
  pool.on('connect', (client) => client.on('error', () => {}))
  // An idle connection ended by the server or the network: the pool drops it and emits this.
  pool.on('error', () => {})
  return {
    async connect(): Promise<PostgresPoolClient> {
      let client: pg.PoolClient
      try {
        client = await pool.connect()
      } catch (error) {
        throw postgresOutage(error) ?? error
      }
      return new GuardedClient(client, queryTimeoutMs, writes)
    },
    end: () => pool.end(),
  }
}

class GuardedClient implements PostgresPoolClient {
  readonly #client: pg.PoolClient
  readonly #timeoutMs: number
  #broken: StoreUnavailable | undefined
  #released = false
  /** Its prepared statements went stale: the pool ends it instead of keeping it. */
  #stale = false
  #inTransaction = false
  readonly #writes: WriteCount

  constructor(client: pg.PoolClient, timeoutMs: number, writes: WriteCount) {
    this.#client = client
    this.#timeoutMs = timeoutMs
    this.#writes = writes
  }

  query<R>(sql: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>>
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>
  query<R>(
    sqlOrCursor: string | PostgresCursor<R>,
    parameters?: readonly unknown[],
  ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof sqlOrCursor !== 'string') {
      return this.#client.query(sqlOrCursor as never)
    }
    if (this.#broken) return Promise.reject(this.#broken)
    const sql = sqlOrCursor
    const values = parameters as unknown[]
    // A statement that may change a kept read (store/read-cache.ts) is counted when sent and
    // again when answered: a read on another connection that overlaps it is not kept, and one
    // kept before its commit is set aside once it has committed.
    const writes = this.#writes
    const mayWrite = mayChangeReads(sql)
    if (mayWrite) writes.count++
    if (/^\s*(begin|start transaction)\b/i.test(sql)) this.#inTransaction = true
    else if (/^\s*(commit|rollback)\s*$/i.test(sql)) this.#inTransaction = false
    // Without parameters pg sends the simple protocol, which takes several statements at once.
    const name = this.#stale || values.length === 0 ? undefined : statementName(sql)
    let running = name
      ? this.#client.query({ name, text: sql, values })
      : this.#client.query(sql, values)
    if (name) {
      running = running.catch((error: unknown) => {
        if (!isStalePlan(error)) throw error
        this.#stale = true
        // Outside a transaction the statement can run again as it is; inside one, the
        // transaction failed with it and its caller sees the error.
        if (this.#inTransaction) throw error
        return this.#client.query(sql, values)
      })
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#broken = new StoreUnavailable(
          `PostgreSQL did not answer within ${this.#timeoutMs} ms`,
          'timeout',
        )
        reject(this.#broken)
      }, this.#timeoutMs)
      running.then(
        (result) => {
          clearTimeout(timer)
          if (mayWrite) writes.count++
          resolve(result as unknown as PostgresQueryResult<R>)
        },
        (error: unknown) => {
          clearTimeout(timer)
          if (mayWrite) writes.count++
          const outage = postgresOutage(error)
          // A server error (a constraint, a cancelled statement) leaves the connection usable.
          if (outage && !(error instanceof pg.DatabaseError && outage.reason !== 'lost')) {
            this.#broken = outage
          }
          reject(outage ?? error)
        },
      )
    })
  }

  release(): void {
    if (this.#released) return
    this.#released = true
    // A truthy argument makes the pool end the client instead of keeping it.
    this.#client.release(this.#broken ?? this.#stale)
  }
}
