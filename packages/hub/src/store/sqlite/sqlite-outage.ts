import { StoreUnavailable } from '../unavailable.js'

/**
 * Result codes that say the database file, not the statement, failed: another process kept the
 * write lock past the busy timeout (BUSY, LOCKED), the disk is full or failing (FULL, IOERR), or
 * the file cannot be opened (CANTOPEN).
 */
const OUTAGE_CODES = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|CANTOPEN|PROTOCOL)/

/** `error` as a StoreUnavailable when it is an outage of the database file, else undefined. */
export function sqliteOutage(error: unknown): StoreUnavailable | undefined {
  if (error instanceof StoreUnavailable) return error
  const code = sqliteCode(error)
  if (code === undefined || !OUTAGE_CODES.test(code)) return undefined
  const busy = /^SQLITE_(BUSY|LOCKED)/.test(code)
  return new StoreUnavailable(
    `SQLite: ${(error as Error).message} (${code})`,
    busy ? 'busy' : 'lost',
    { cause: error },
  )
}

/**
 * Whether `error` says another connection holds a lock this statement needs (SQLITE_BUSY and its
 * extended codes): the statement did nothing and can be tried again.
 */
export function isBusy(error: unknown): boolean {
  return sqliteCode(error)?.startsWith('SQLITE_BUSY') === true
}

function sqliteCode(error: unknown): string | undefined {
  if (!(error instanceof Error) || !('code' in error) || typeof error.code !== 'string') {
    return undefined
  }
  return error.code
}
