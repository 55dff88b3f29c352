import type { Logger } from 'pino'
import type { RunSettings } from '../config.js'
import { decodeInSlices } from '../http/text-digest.js'
import { chargeLimits, overQuota } from '../quotas/charge.js'
import type { QuotaLimits } from '../quotas/settings.js'
import type { RunOutcome } from '../store/deployments-repo.js'
import type { Store } from '../store/store.js'
import { OverQuota } from '../store/usage-repo.js'
import { runBundle, type RunInput, type RunResult } from './runner.js'
import { findSandbox, sandboxRefusal } from './sandbox-probe.js'

/** What a queued run needs, fixed when it was asked for. */
export type RunJob = {
  readonly runId: string
  /** Whose turn it takes: the account that asked for it, `user:<id>`. */
  readonly account: string
  /** The handle of the account that owns the project: its artifacts count against its quotas. */
  readonly owner: string
  readonly bundleSha256: string
  /** The revision's document blob and protocol; the run was refused without one. */
  readonly document: { readonly sha256: string; readonly protocol: 'oas' | 'gql' }
  readonly clientSettings: Record<string, unknown>
}

/** What a failed run says when its hub died before writing its outcome. */
export const INTERRUPTED = 'The hub stopped during the run.'

/** Where runs are stored, how they are limited, and what runs them. */
export type RunContext = {
  readonly store: Store
  readonly settings: RunSettings
  /** The default storage quotas: a run's artifacts count against its project owner's. */
  readonly quotas: QuotaLimits
  readonly log: Pick<Logger, 'error' | 'info'>
  readonly run?: (input: RunInput) => Promise<RunResult>
}

/**
 * Runs a job whose turn came and writes its outcome: its start moves to now, its process runs
 * in the sandbox (`signal` ends it early), and its artifacts are stored within the quotas of the
 * project's owner, or the run fails saying which quota and stores none.
 */
export async function executeRun(
  job: RunJob,
  context: RunContext,
  signal: AbortSignal,
): Promise<void> {
  const { store, settings, log } = context
  if (!(await store.deployments.startRun(job.runId, new Date().toISOString()))) return
  const [bundle, document] = await Promise.all([
    store.blobs.get(job.bundleSha256),
    store.blobs.get(job.document.sha256),
  ])
  if (!bundle || !document) throw new Error('the bundle or document blob is missing')
  const found = await findSandbox(settings)
  if (!found.ok) return failRun(context, job.runId, sandboxRefusal(found.reason))
  const result = await (context.run ?? runBundle)({
    bundle,
    document: await decodeInSlices(document),
    protocol: job.document.protocol,
    clientSettings: job.clientSettings,
    limits: settings,
    sandbox: found.sandbox,
    signal,
  })
  const ended = {
    log: result.log,
    finishedAt: new Date().toISOString(),
    durationMs: result.durationMs,
  }
  const outcome: RunOutcome = result.ok
    ? { status: 'succeeded', error: null, manifest: JSON.stringify(result.manifest), ...ended }
    : { status: 'failed', error: result.reason, manifest: null, ...ended }
  try {
    await store.deployments.finishRun(
      job.runId,
      outcome,
      result.ok ? result.artifacts : [],
      chargeLimits(context.quotas, 'runArtifacts'),
    )
  } catch (error) {
    if (!(error instanceof OverQuota)) throw error
    const reason = `${overQuota(job.owner, error.refusal)} No artifacts were stored.`
    await failRun(context, job.runId, reason, ended)
    log.info({ run: job.runId, quota: error.refusal.quota }, 'run failed: over quota')
    return
  }
  log.info(
    { run: job.runId, ok: result.ok, durationMs: result.durationMs },
    result.ok ? 'run succeeded' : 'run failed',
  )
}

/** Ends a run as failed with `error`; a store that fails is logged, never thrown. */
export async function failRun(
  context: Pick<RunContext, 'store' | 'log'>,
  runId: string,
  error: string,
  ended: { readonly log: string | null; readonly durationMs: number } = {
    log: null,
    durationMs: 0,
  },
): Promise<void> {
  try {
    await context.store.deployments.finishRun(runId, {
      status: 'failed',
      error,
      manifest: null,
      log: ended.log,
      finishedAt: new Date().toISOString(),
      durationMs: ended.durationMs,
    })
  } catch (failure) {
    context.log.error({ err: failure, run: runId }, 'could not record a failed run')
  }
}
