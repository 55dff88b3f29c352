/** The store cannot be opened as configured: a bad `DATABASE_URL`, schema name, or no database. */
export class StoreConfigError extends Error {
  override readonly name = 'StoreConfigError'
}
