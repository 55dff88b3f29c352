import type { SafeFetch } from '@svc/safe-fetch'
import type { Logger } from 'pino'
import type { DocumentAnalysis } from '../apis/document-analysis.js'
import type { Caller, KeyCaller } from '../auth/caller.js'
import type { HubConfig } from '../config.js'
import type { HubMetrics } from '../middleware/metrics.js'
import type { RequestClient } from '../proxy/index.js'
import type { RateLimits } from '../ratelimit/index.js'
import type { Store } from '../store/store.js'
import type { DeliveryNotifier } from '../webhooks/dispatcher.js'

/** What every request handler can reach: the one env type of every router and middleware. */
export type HubServices = {
  readonly store: Store
  readonly config: HubConfig
  readonly metrics: HubMetrics
  /** Reads and diffs pushed documents off the event loop. */
  readonly documents: DocumentAnalysis
  /** The guarded client of every outbound request (refetch of an API's source URL). */
  readonly outbound: SafeFetch
  /** The in-process webhook dispatcher, told when a request queued deliveries. */
  readonly deliveries: DeliveryNotifier
  /** Default limits, organisations' overrides and the counts (docs/api/rate-limits.md). */
  readonly rateLimits: RateLimits
}

export type HubEnv = {
  Variables: {
    requestId: string
    log: Logger
    hub: HubServices
    /** Who sent the request: its client address and whether it came straight from this machine. */
    client: RequestClient
    /** Set by `authenticate` when the request carries a valid credential. */
    caller: Caller | undefined
    /** Set by `authenticate` on the paths that take organisation API keys, for a valid key. */
    keyCaller: KeyCaller | undefined
  }
}
