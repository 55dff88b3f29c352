/** Keys whose bookkeeping write is under way. */
const writing = new Set<string>()

/**
 * Runs a bookkeeping write (a token's or a session's last use) without holding the request:
 * bookkeeping must not delay nor fail a read while the store cannot write (another process holds
 * SQLite's write lock, the disk is full). One write per `key` at a time; one that fails is logged
 * as `what not recorded` (warn) and made again by a later request.
 */
export function writeLater(
  key: string,
  write: () => Promise<unknown>,
  log: { warn(fields: object, message: string): void },
  what: string,
): void {
  if (writing.has(key)) return
  writing.add(key)
  write()
    .catch((error: unknown) => log.warn({ err: error, key }, `${what} not recorded`))
    .finally(() => writing.delete(key))
}
