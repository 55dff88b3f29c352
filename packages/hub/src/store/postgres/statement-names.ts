/** Longer texts go unnamed: they are batch statements, one text per batch size. */
const MAX_NAMED_LENGTH = 8_192
/** Names handed out at most per process; texts seen after that go unnamed. */
const MAX_NAMES = 1_000
/** Reads and writes of rows; transaction control and schema changes go unnamed. */
const NAMED = /^\s*(select|insert|update|delete|with)\b/i

const names = new Map<string, string>()

/**
 * The name to prepare `sql` under on each connection, or undefined to send it unnamed. A named
 * statement is parsed once per connection and PostgreSQL keeps its plan: planning the hub's
 * joined reads took several times longer than running them (docs/benchmarks.md).
 */
export function statementName(sql: string): string | undefined {
  const known = names.get(sql)
  if (known !== undefined) return known
  if (sql.length > MAX_NAMED_LENGTH || names.size >= MAX_NAMES || !NAMED.test(sql)) return undefined
  const name = `svc_${names.size + 1}`
  names.set(sql, name)
  return name
}

/**
 * Whether `error` says a prepared statement no longer fits its tables (another process changed
 * them: a migration of a newer hub). The connection's prepared statements are then stale.
 */
export function isStalePlan(error: unknown): boolean {
  return (
    error instanceof Error &&
    'code' in error &&
    error.code === '0A000' &&
    /cached plan/.test(error.message)
  )
}
