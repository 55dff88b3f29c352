import { Migrator, type Kysely } from 'kysely'
import { AccountsRepo } from './accounts-repo.js'
import { AccountSettingsRepo } from './account-settings-repo.js'
import { ApisRepo } from './apis-repo.js'
import { BlobsRepo } from './blobs-repo.js'
import { CreditsRepo } from './credits-repo.js'
import { DeliveriesRepo } from './deliveries-repo.js'
import { DeploymentsRepo } from './deployments-repo.js'
import { IdempotencyRepo } from './idempotency-repo.js'
import { LibrariesRepo } from './libraries-repo.js'
import type { DialectCapabilities, LockWaits, StoreDialect } from './dialect.js'
import { migrationProvider } from './migrations/index.js'
import { refuseNewerStore } from './migrations/newer-store.js'
import { ProjectsRepo } from './projects-repo.js'
import { RateLimitsRepo } from './rate-limits-repo.js'
import { SessionsRepo } from './sessions-repo.js'
import type { Database } from './schema.js'
import { StacksRepo } from './stacks-repo.js'
import { TokenCache } from './token-cache.js'
import { ReadCache } from './read-cache.js'
import { RetentionRepo } from './retention-repo.js'
import { StoreUnavailable } from './unavailable.js'
import { UsageRepo } from './usage-repo.js'
import { WebhooksRepo } from './webhooks-repo.js'

const NO_LOCK_WAITS: LockWaits = Object.freeze({ waiting: 0, total: 0 })

/** The repositories over one connection or one transaction. */
export class Repos {
  readonly accounts: AccountsRepo
  readonly blobs: BlobsRepo
  readonly stacks: StacksRepo
  readonly projects: ProjectsRepo
  readonly apis: ApisRepo
  readonly webhooks: WebhooksRepo
  readonly deliveries: DeliveriesRepo
  readonly rateLimits: RateLimitsRepo
  readonly credits: CreditsRepo
  readonly libraries: LibrariesRepo
  readonly idempotency: IdempotencyRepo
  readonly sessions: SessionsRepo
  readonly accountSettings: AccountSettingsRepo
  readonly deployments: DeploymentsRepo
  readonly usage: UsageRepo
  readonly retention: RetentionRepo

  constructor(
    db: Kysely<Database>,
    capabilities: DialectCapabilities,
    tokens?: TokenCache,
    projectReads?: ReadCache,
  ) {
    this.accounts = new AccountsRepo(db, tokens)
    this.blobs = new BlobsRepo(db, capabilities)
    this.stacks = new StacksRepo(db)
    this.projects = new ProjectsRepo(db, projectReads)
    this.apis = new ApisRepo(db, capabilities)
    this.webhooks = new WebhooksRepo(db, capabilities)
    this.deliveries = new DeliveriesRepo(db, capabilities)
    this.rateLimits = new RateLimitsRepo(db)
    this.credits = new CreditsRepo(db, capabilities)
    this.libraries = new LibrariesRepo(db)
    this.idempotency = new IdempotencyRepo(db)
    this.sessions = new SessionsRepo(db)
    this.accountSettings = new AccountSettingsRepo(db)
    this.deployments = new DeploymentsRepo(db, capabilities)
    this.usage = new UsageRepo(db)
    this.retention = new RetentionRepo(db)
  }
}

/**
 * The hub's storage seam: the same code on SQLite and PostgreSQL; only `capabilities`
 * (from `store/sqlite/` or `store/postgres/`) tells them apart.
 */
export class Store extends Repos {
  readonly capabilities: DialectCapabilities
  readonly #dialect: StoreDialect
  readonly #tokens: TokenCache
  readonly #projectReads: ReadCache

  constructor(dialect: StoreDialect) {
    const tokens = new TokenCache()
    const projectReads = new ReadCache()
    super(dialect.db, dialect.capabilities, tokens, projectReads)
    this.#tokens = tokens
    this.#projectReads = projectReads
    this.#dialect = dialect
    this.capabilities = dialect.capabilities
  }

  /**
   * Keeps token lookups in memory for a few seconds (store/token-cache.ts), for as long as the
   * engine can tell this process of token changes made by others: SQLite's `data_version`,
   * PostgreSQL's notifications; and a project route's read of the account, the caller's role and
   * the project, for as long as it can tell of any change to those (store/read-cache.ts). The hub's
   * server turns it on; tools and tests read every time.
   */
  async cacheReads(): Promise<void> {
    const feed = await this.#dialect.watchTokenChanges?.()
    if (feed) this.#tokens.attach(feed)
    this.#projectReads.attach(await this.#dialect.watchChanges?.())
  }

  /**
   * The server calls this as each request arrives, before the request's first read: whatever
   * another process committed until now is then seen by the request's kept reads.
   */
  requestArrived(): void {
    this.#dialect.requestArrived?.()
  }

  /** The raw query builder, for tests and one-off tools; hub code goes through the repositories. */
  get kysely(): Kysely<Database> {
    return this.#dialect.db
  }

  get describe(): string {
    return this.#dialect.describe
  }

  /** The queries that waited for another process's lock on the store (SQLite), for metrics. */
  get lockWaits(): Readonly<LockWaits> {
    return this.#dialect.lockWaits ?? NO_LOCK_WAITS
  }

  /** Runs `work` in one transaction: everything it writes lands, or nothing does. */
  transaction<T>(work: (tx: Repos) => Promise<T>): Promise<T> {
    return this.#dialect.db
      .transaction()
      .execute((trx) => work(new Repos(trx, this.capabilities, this.#tokens)))
  }

  /**
   * Applies every pending migration; safe to run from several processes at once. A store that a
   * newer hub migrated is refused (StoreConfigError), unchanged.
   */
  async migrate(): Promise<void> {
    const schema = await this.#dialect.schema?.()
    const provider = migrationProvider(this.capabilities)
    const migrator = new Migrator({
      db: this.#dialect.db,
      provider,
      ...(schema ? { migrationTableSchema: schema } : {}),
    })
    let { error, results } = await migrator.migrateToLatest()
    if (error) {
      const known = Object.keys(await provider.getMigrations())
      await refuseNewerStore(this.#dialect.db, known, schema)
    }
    // SQLite has no migration lock across processes: when several start on a new file at once,
    // a slower one fails on tables another just made. A later look finds them applied.
    for (let attempt = 1; error && attempt < 5; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 100 * attempt))
      ;({ error, results } = await migrator.migrateToLatest())
    }
    if (error) {
      const failed = results?.find((r) => r.status === 'Error')?.migrationName
      const which = failed ? `database migration ${failed}` : 'database migration'
      throw new Error(`${which} failed: ${String(error)}`, { cause: error })
    }
  }

  /** Answers when the database serves a query; fails with StoreUnavailable past `timeoutMs`. */
  async ping(timeoutMs?: number): Promise<void> {
    if (timeoutMs === undefined) return this.#dialect.ping()
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new StoreUnavailable(`no answer within ${timeoutMs} ms`, 'timeout')),
        timeoutMs,
      )
    })
    try {
      await Promise.race([this.#dialect.ping(), late])
    } finally {
      clearTimeout(timer)
    }
  }

  /**
   * Moves the engine's upkeep of its files off the event loop (SQLite's WAL checkpoints: a
   * thread of their own, store/sqlite/checkpointer.ts). The hub's server and worker turn it on;
   * short-lived tools leave the engine to do it.
   */
  upkeepOffThread(): void {
    this.#dialect.upkeepOffThread?.()
  }

  async close(): Promise<void> {
    await this.#tokens.close()
    await this.#projectReads.close()
    await this.#dialect.close?.()
    await this.#dialect.db.destroy()
  }
}
