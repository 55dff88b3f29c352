import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { AllowListError, parseAllowList, type AllowList } from '@svc/safe-fetch'
import { readAnalysisSettings, type AnalysisSettings } from './apis/analysis-settings.js'
import { ConfigError } from './config-error.js'
import { readProxySettings, type ProxySettings } from './proxy/settings.js'
import { readQuotaSettings, type QuotaSettings } from './quotas/settings.js'
import { readRateLimitSettings, type RateLimitSettings } from './ratelimit/settings.js'
import { DEFAULT_STORE_TIMEOUTS, type StoreTimeouts } from './store/dialect.js'

/** Size limits of one stack version upload (422 `payload_too_large` when exceeded). */
export type PublishLimits = {
  readonly bundleBytes: number
  readonly fileBytes: number
  readonly sourceBytes: number
  readonly files: number
}

/** Size limits of one project's base files upload. */
export type BaseFileLimits = PublishLimits

export type HubConfig = {
  readonly port: number
  readonly host: string
  /** Where the embedded SQLite database lives when no `DATABASE_URL` is set. */
  readonly dataDir: string
  readonly databaseUrl: string | undefined
  /** PostgreSQL schema to use (created when missing) instead of `public`. */
  readonly databaseSchema: string | undefined
  /** How long the store waits on its database before a request fails with 503. */
  readonly storeTimeouts: StoreTimeouts
  /** How long `/readyz` waits for the store's answer before it says 503. */
  readonly readyTimeoutMs: number
  /** How long `serve` and `worker` keep trying to reach the database when they start. */
  readonly storeStartWaitMs: number
  /** `{base_url}`: the origin the hub puts into the URLs it returns. */
  readonly publicUrl: string
  /** True when SVC_HUB_PUBLIC_URL is unset: the hub then uses the port it really listens on. */
  readonly publicUrlIsDefault: boolean
  readonly logLevel: string
  /** `SVC_HUB_LOG_FORMAT`; unset: pretty when stdout is a terminal, JSON lines otherwise. */
  readonly logFormat: LogFormat | undefined
  readonly publish: PublishLimits
  readonly baseFiles: BaseFileLimits
  /** Largest JSON request body accepted. */
  readonly jsonBodyBytes: number
  /** Largest request body of a revision push (the document, or the JSON envelope holding it). */
  readonly documentBytes: number
  /** The budget of each analysis of a pushed document, and each account's share of them. */
  readonly analysis: AnalysisSettings
  /**
   * Private targets the outbound guard lets through (webhooks, refetch): the operator's
   * `SVC_HUB_ALLOW_PRIVATE_NETWORKS`, and loopback besides while the hub is a local trial.
   */
  readonly allowPrivateNetworks: AllowList
  /**
   * `local-trial` while the hub listens on loopback only and its public URL is a loopback one
   * (nobody else can reach it, nor be sent its URLs): the guard then admits loopback targets.
   */
  readonly outboundMode: OutboundMode
  /** Which peers may name the client of a request, and in which header (proxy/settings.ts). */
  readonly proxies: ProxySettings
  readonly webhooks: WebhookDispatchConfig
  /** Where rate-limit counts live when several hubs share them; in process memory when unset. */
  readonly redisUrl: string | undefined
  readonly rateLimits: RateLimitSettings
  /** Whether anyone may make an account on the web app's sign-up page (`SVC_HUB_SIGNUP`). */
  readonly signup: 'open' | 'closed'
  /** How runs of a deployment's `server.js` are isolated and limited (runs/runner.ts). */
  readonly runs: RunSettings
  /** Each account's share: its queue of runs, its storage quotas, run artifacts' retention. */
  readonly quotas: QuotaSettings
  /** Where `/downloads/svc-cli-<version>.tgz` is read from (`SVC_HUB_DOWNLOADS_DIR`). */
  readonly downloadsDir: string
}

export type OutboundMode = 'local-trial' | 'strict'

/**
 * How a run is isolated (`SVC_HUB_RUN_SANDBOX`): `bwrap`, a bubblewrap sandbox, or `unsafe-none`,
 * the operator's explicit opt-in to run bundles without one.
 */
export type RunSandboxMode = 'bwrap' | 'unsafe-none'

export type RunSettings = RunLimits & { readonly sandbox: RunSandboxMode }

export type RunLimits = {
  /** Wall-clock limit of one run, from spawning the process to reading its answer. */
  readonly timeoutMs: number
  /** The child's V8 heap limit (`--max-old-space-size`); its writable memory is this + 512 MiB. */
  readonly memoryMb: number
  /** Largest answer (artifacts and manifest) read from the child, and largest log it may print. */
  readonly maxOutputBytes: number
}

export type WebhookDispatchConfig = {
  /** How long a worker holds a claimed delivery before another may take it. */
  readonly leaseMs: number
  /** Attempts one process makes at once. */
  readonly concurrency: number
}

const MiB = 1024 * 1024
const D = DEFAULT_STORE_TIMEOUTS

export type LogFormat = 'json' | 'pretty'

function logFormat(raw: string | undefined): LogFormat | undefined {
  if (!raw) return undefined
  if (raw === 'json' || raw === 'pretty') return raw
  throw new ConfigError(`SVC_HUB_LOG_FORMAT must be 'json' or 'pretty', got '${raw}'`)
}

export { ConfigError }

/**
 * Reads the hub's configuration from the environment (docs/hub/running.md). `listens: false`
 * (`svc-hub worker`, which has no address of its own to judge) keeps the outbound guard strict.
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  options: { readonly listens?: boolean } = {},
): HubConfig {
  const port = integer(env, 'PORT', 8080)
  if (port > 65535) throw new ConfigError(`PORT must be from 0 to 65535, got '${env.PORT}'`)
  const publish: PublishLimits = {
    bundleBytes: integer(env, 'SVC_HUB_MAX_BUNDLE_BYTES', 10 * MiB),
    fileBytes: integer(env, 'SVC_HUB_MAX_FILE_BYTES', 2 * MiB),
    sourceBytes: integer(env, 'SVC_HUB_MAX_SOURCE_BYTES', 20 * MiB),
    files: integer(env, 'SVC_HUB_MAX_FILES', 2000),
  }
  const host = env.HOST || '127.0.0.1'
  const publicUrl = origin(env.SVC_HUB_PUBLIC_URL || `http://localhost:${port}`)
  const allow = allowList(env.SVC_HUB_ALLOW_PRIVATE_NETWORKS)
  const localTrial =
    options.listens !== false && isLoopbackHost(host) && isLoopbackHost(new URL(publicUrl).hostname)
  return {
    port,
    host,
    dataDir: path.resolve(env.SVC_HUB_DATA || '.svc-hub'),
    databaseUrl: env.DATABASE_URL || undefined,
    databaseSchema: env.SVC_HUB_DATABASE_SCHEMA || undefined,
    storeTimeouts: {
      connectMs: atLeast(env, 'SVC_HUB_DB_CONNECT_TIMEOUT_MS', D.connectMs, 100),
      statementMs: atLeast(env, 'SVC_HUB_DB_STATEMENT_TIMEOUT_MS', D.statementMs, 100),
      idleInTransactionMs: atLeast(
        env,
        'SVC_HUB_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS',
        D.idleInTransactionMs,
        1000,
      ),
      busyMs: integer(env, 'SVC_HUB_SQLITE_BUSY_TIMEOUT_MS', D.busyMs),
    },
    readyTimeoutMs: atLeast(env, 'SVC_HUB_READY_TIMEOUT_MS', 2_000, 100),
    storeStartWaitMs: integer(env, 'SVC_HUB_DB_START_WAIT_SECONDS', 60) * 1000,
    publicUrl,
    publicUrlIsDefault: !env.SVC_HUB_PUBLIC_URL,
    logLevel: env.SVC_HUB_LOG_LEVEL || 'info',
    logFormat: logFormat(env.SVC_HUB_LOG_FORMAT),
    publish,
    // Base files share the source limits; they come without a bundle.
    baseFiles: { ...publish, bundleBytes: 0 },
    jsonBodyBytes: integer(env, 'SVC_HUB_MAX_JSON_BYTES', 1 * MiB),
    documentBytes: integer(env, 'SVC_HUB_MAX_DOCUMENT_BYTES', 32 * MiB),
    analysis: readAnalysisSettings(env),
    allowPrivateNetworks: localTrial ? allow.withLoopback() : allow,
    outboundMode: localTrial ? 'local-trial' : 'strict',
    proxies: readProxySettings(env),
    webhooks: {
      leaseMs: atLeast(env, 'SVC_HUB_WEBHOOK_LEASE_SECONDS', 15, MIN_LEASE_SECONDS) * 1000,
      concurrency: atLeast(env, 'SVC_HUB_WEBHOOK_CONCURRENCY', 128, 1),
    },
    redisUrl: redisUrl(env.REDIS_URL),
    rateLimits: rateLimitSettings(env),
    signup: signup(env.SVC_HUB_SIGNUP),
    runs: {
      timeoutMs: atLeast(env, 'SVC_HUB_RUN_TIMEOUT_MS', 60_000, 1000),
      memoryMb: atLeast(env, 'SVC_HUB_RUN_MEMORY_MB', 512, 32),
      maxOutputBytes: atLeast(env, 'SVC_HUB_RUN_MAX_OUTPUT_BYTES', 50 * MiB, 1024),
      sandbox: runSandbox(env.SVC_HUB_RUN_SANDBOX),
    },
    quotas: readQuotaSettings(env),
    downloadsDir: env.SVC_HUB_DOWNLOADS_DIR
      ? path.resolve(env.SVC_HUB_DOWNLOADS_DIR)
      : BUILT_DOWNLOADS_DIR,
  }
}

/** Where `npm run build` (scripts/pack-cli.js) writes the CLI's tarball: the hub's `downloads/`. */
const BUILT_DOWNLOADS_DIR = fileURLToPath(new URL('../downloads/', import.meta.url))

/** `localhost`, `*.localhost`, `127.0.0.0/8` or `::1` (bracketed or not): only this machine. */
export function isLoopbackHost(host: string): boolean {
  const name = host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
  if (name === 'localhost' || name.endsWith('.localhost')) return true
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name)) return true
  return name === '::1' || name === '0:0:0:0:0:0:0:1'
}

function signup(raw: string | undefined): 'open' | 'closed' {
  if (raw === undefined || raw === '' || raw === 'open') return 'open'
  if (raw === 'closed') return 'closed'
  throw new ConfigError(`SVC_HUB_SIGNUP must be 'open' or 'closed', got '${raw}'`)
}

function runSandbox(raw: string | undefined): RunSandboxMode {
  if (raw === undefined || raw === '' || raw === 'bwrap') return 'bwrap'
  if (raw === 'unsafe-none') return 'unsafe-none'
  throw new ConfigError(`SVC_HUB_RUN_SANDBOX must be 'bwrap' or 'unsafe-none', got '${raw}'`)
}

function redisUrl(raw: string | undefined): string | undefined {
  if (!raw) return undefined
  if (!/^rediss?:\/\/[^/]/.test(raw)) {
    throw new ConfigError('REDIS_URL must be a redis:// or rediss:// URL')
  }
  return raw
}

function rateLimitSettings(env: NodeJS.ProcessEnv): RateLimitSettings {
  const cacheSeconds = integer(env, 'SVC_HUB_RATE_LIMIT_CACHE_SECONDS', 10)
  const settings = readRateLimitSettings(env.SVC_HUB_RATE_LIMITS, cacheSeconds)
  if (typeof settings === 'string') throw new ConfigError(`SVC_HUB_RATE_LIMITS: ${settings}`)
  return settings
}

/**
 * Leases are renewed every third of their length while held (`webhooks/leases.ts`), so a lease
 * need not outlast an attempt; a shorter one than this would not survive a stalled renewal.
 */
const MIN_LEASE_SECONDS = 5

function atLeast(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const value = integer(env, name, fallback)
  if (value < min) throw new ConfigError(`${name} must be at least ${min}, got '${env[name]}'`)
  return value
}

function allowList(raw: string | undefined): AllowList {
  try {
    return parseAllowList(raw)
  } catch (error) {
    if (!(error instanceof AllowListError)) throw error
    throw new ConfigError(`SVC_HUB_ALLOW_PRIVATE_NETWORKS: ${error.message}`)
  }
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new ConfigError(`${name} must be a non-negative integer, got '${raw}'`)
  }
  return value
}

function origin(raw: string): string {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ConfigError(`SVC_HUB_PUBLIC_URL must be an absolute URL, got '${raw}'`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`SVC_HUB_PUBLIC_URL must be http or https, got '${raw}'`)
  }
  return url.href.replace(/\/+$/, '')
}
