import { createHash } from 'node:crypto'
import type { Kysely } from 'kysely'
import { now } from './ids.js'
import type { Database } from './schema.js'

export function sha256Hex(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex')
}

/** Content-addressed bytes: storing the same bytes twice keeps one row. */
export class BlobsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Stores `data` under its SHA-256 (given when the caller already computed it) and returns it. */
  async put(data: Uint8Array, sha256 = sha256Hex(data)): Promise<string> {
    await this.db
      .insertInto('blobs')
      .values({ sha256, size: data.byteLength, data, created_at: now() })
      .onConflict((oc) => oc.column('sha256').doNothing())
      .execute()
    return sha256
  }

  async get(sha256: string): Promise<Uint8Array | undefined> {
    const row = await this.db
      .selectFrom('blobs')
      .select('data')
      .where('sha256', '=', sha256)
      .executeTakeFirst()
    return row?.data
  }
}
