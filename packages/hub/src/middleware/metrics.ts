import { createMiddleware } from 'hono/factory'
import { matchedRoutes } from 'hono/route'
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { HubEnv } from '../http/env.js'
import type { AnalysisQueue, DocumentMetrics } from '../apis/document-analysis.js'
import type { DispatcherMetrics } from '../webhooks/dispatcher.js'

export type HubMetrics = {
  readonly registry: Registry
  readonly requests: Counter<'method' | 'route' | 'status'>
  readonly duration: Histogram<'method' | 'route'>
  readonly webhooks: DispatcherMetrics
  readonly documents: DocumentMetrics
}

/** One registry per app, so two hubs in one process (tests) never share counters. */
export function createMetrics(): HubMetrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const attempts = new Counter({
    name: 'svc_hub_webhook_attempts_total',
    help: 'Webhook delivery attempts, by outcome (`inactive`: the webhook was off; no request)',
    labelNames: ['outcome'],
    registers: [registry],
  })
  const attemptDuration = new Histogram({
    name: 'svc_hub_webhook_attempt_duration_seconds',
    help: 'Time from sending a webhook request to its answer (or timeout)',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  })
  const analyses = new Histogram({
    name: 'svc_hub_document_analysis_seconds',
    help: 'Time to read a pushed document (`read`: a first revision) or to read and diff it against the latest revision (`diff`)',
    labelNames: ['kind'],
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  })
  const ended = new Counter({
    name: 'svc_hub_document_analyses_total',
    help: 'Analyses of pushed documents, by how they ended: `done`, over a budget (`expanded_nodes`, `time`, `memory`), `cancelled` (the client went away) or `failed`',
    labelNames: ['outcome'],
    registers: [registry],
  })
  let queue: AnalysisQueue = { waiting: 0, running: 0 }
  new Gauge({
    name: 'svc_hub_document_analyses_waiting',
    help: 'Analyses waiting in the per-account queues for an analysis thread',
    registers: [registry],
    collect() {
      this.set(queue.waiting)
    },
  })
  new Gauge({
    name: 'svc_hub_document_analyses_running',
    help: 'Analyses running on analysis threads',
    registers: [registry],
    collect() {
      this.set(queue.running)
    },
  })
  return {
    registry,
    documents: {
      analysed: (kind, seconds) => analyses.observe({ kind }, seconds),
      ended: (outcome) => ended.inc({ outcome }),
      watch: (analyses) => (queue = analyses),
    },
    webhooks: {
      attempted(outcome, durationMs) {
        attempts.inc({ outcome })
        if (outcome !== 'inactive') attemptDuration.observe(durationMs / 1000)
      },
    },
    requests: new Counter({
      name: 'svc_hub_http_requests_total',
      help: 'HTTP requests answered, by route pattern and status',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'svc_hub_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by route pattern',
      labelNames: ['method', 'route'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
  }
}

export function recordMetrics(metrics: HubMetrics) {
  return createMiddleware<HubEnv>(async function recordMetrics(c, next) {
    // performance.now(), not the histogram's startTimer: that one allocates an hrtime pair, two
    // closures and a merged label object per request for the same figure.
    const started = performance.now()
    await next()
    // Labels are route patterns, never raw paths, so a scan of random URLs adds no series: the
    // route that answered (not middleware, nor the catch-all that hands pages to the web app),
    // else `page` for the web app and `unmatched` for an unknown /v1 path.
    const matched = matchedRoutes(c).find((r) => r.method !== 'ALL' && !r.path.endsWith('*'))
    const route = matched?.path ?? (/^\/v1(?:\/|$)/.test(c.req.path) ? 'unmatched' : 'page')
    const method = c.req.method
    metrics.duration.observe({ method, route }, (performance.now() - started) / 1000)
    metrics.requests.inc({ method, route, status: String(c.res.status) })
  })
}
