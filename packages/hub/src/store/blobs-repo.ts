import { createHash } from 'node:crypto'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { sql, type Kysely } from 'kysely'
import type { DialectCapabilities } from './dialect.js'
import { now } from './ids.js'
import type { Database } from './schema.js'

/** Rows per insert: a database round trip per blob dominates a publish on PostgreSQL. */
const BATCH_ROWS = 100

/**
 * Bytes per insert (a larger blob goes alone): on SQLite an insert holds the event loop for as
 * long as it writes, about 10 ms per 4 MiB here, so large writes are cut and the loop is
 * served between them.
 */
const BATCH_BYTES = 4 * 1024 * 1024

/**
 * A larger blob is read this much per statement, the event loop served between statements: in
 * one piece, PostgreSQL's answer of a 28 MB blob (hex text, 56 MB) takes the hub's thread about
 * 200 ms to take apart, SQLite's about 70 ms to copy.
 */
const READ_SLICE_BYTES = 4 * 1024 * 1024

export function sha256Hex(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex')
}

/** Content-addressed bytes: storing the same bytes twice keeps one row. */
export class BlobsRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly capabilities: Pick<DialectCapabilities, 'rowLocks'> = { rowLocks: false },
  ) {}

  /** Stores `data` under its SHA-256 (given when the caller already computed it) and returns it. */
  async put(data: Uint8Array, sha256 = sha256Hex(data)): Promise<string> {
    await this.putMany([{ data, sha256 }])
    return sha256
  }

  /**
   * Stores many blobs in few statements: batches of at most {@link BATCH_ROWS} rows and
   * {@link BATCH_BYTES} (a larger blob alone), with the event loop served between statements,
   * so that fifty megabytes of run artifacts never hold it at once.
   *
   * In a transaction on PostgreSQL, each blob is then held (a key-share lock) until the
   * transaction ends, so that the rows it goes on to write can reference it: an insert that
   * found the blob stored already neither wrote nor locked it, and another process's retention
   * cleanup may delete it in that moment; a blob found gone is stored again. SQLite needs none
   * of this: its one writer at a time keeps the cleanup out of the transaction.
   */
  async putMany(blobs: readonly { data: Uint8Array; sha256: string }[]): Promise<void> {
    let missing = [...new Map(blobs.map((b) => [b.sha256, b])).values()]
    for (let attempt = 0; missing.length > 0 && attempt < 3; attempt++) {
      await this.#insert(missing)
      if (!this.capabilities.rowLocks) return
      const held = await this.#hold(missing.map((b) => b.sha256))
      missing = missing.filter((b) => !held.has(b.sha256))
    }
  }

  async #insert(unique: readonly { data: Uint8Array; sha256: string }[]): Promise<void> {
    const at = now()
    let batch: { data: Uint8Array; sha256: string }[] = []
    let bytes = 0
    let sent = false
    const flush = async () => {
      if (batch.length === 0) return
      if (sent) await nextTurn()
      sent = true
      await this.db
        .insertInto('blobs')
        .values(
          batch.map((b) => ({
            sha256: b.sha256,
            size: b.data.byteLength,
            data: b.data,
            created_at: at,
          })),
        )
        .onConflict((oc) => oc.column('sha256').doNothing())
        .execute()
      batch = []
      bytes = 0
    }
    for (const blob of unique) {
      if (batch.length === BATCH_ROWS || bytes + blob.data.byteLength > BATCH_BYTES) await flush()
      batch.push(blob)
      bytes += blob.data.byteLength
    }
    await flush()
  }

  /** Locks those of `sha256s` that are stored (PostgreSQL); answers which they are. */
  async #hold(sha256s: readonly string[]): Promise<Set<string>> {
    const held = new Set<string>()
    for (let i = 0; i < sha256s.length; i += 500) {
      const rows = await this.db
        .selectFrom('blobs')
        .select('sha256')
        .where('sha256', 'in', sha256s.slice(i, i + 500))
        .forKeyShare()
        .execute()
      for (const row of rows) held.add(row.sha256)
    }
    return held
  }

  /** The bytes stored under `sha256`; a large blob is read a slice at a time. */
  async get(sha256: string): Promise<Uint8Array | undefined> {
    const row = await this.db
      .selectFrom('blobs')
      .select((eb) => [
        'size',
        eb.case().when('size', '<=', READ_SLICE_BYTES).then(eb.ref('data')).end().as('data'),
      ])
      .where('sha256', '=', sha256)
      .executeTakeFirst()
    if (!row) return undefined
    if (row.data !== null) return row.data
    const whole = Buffer.allocUnsafe(row.size)
    for (let at = 0; at < row.size; at += READ_SLICE_BYTES) {
      await nextTurn()
      const slice = await this.db
        .selectFrom('blobs')
        .select(sql<Uint8Array>`substr(data, ${at + 1}, ${READ_SLICE_BYTES})`.as('data'))
        .where('sha256', '=', sha256)
        .executeTakeFirst()
      // Gone meanwhile (a cleanup removed it): as if it never was.
      if (!slice) return undefined
      whole.set(slice.data, at)
    }
    return whole
  }
}
