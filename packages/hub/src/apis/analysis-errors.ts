import { ApiError } from '../errors/index.js'
import { ANALYSIS_SETTING, type AnalysisSettings } from './analysis-settings.js'

/** The budget an analysis went over, as `details.limit` names it. */
export type AnalysisLimit = 'expanded_nodes' | 'time' | 'memory'

const BUDGETS = {
  expanded_nodes: {
    setting: 'maxNodes',
    over: (max: number) =>
      `The document has more than ${max.toLocaleString('en-US')} nodes once its YAML aliases are expanded`,
  },
  time: {
    setting: 'timeoutMs',
    over: (max: number) => `Analysing the document took longer than ${seconds(max)}`,
  },
  memory: {
    setting: 'memoryMb',
    over: (max: number) => `Analysing the document needed more than ${max} MB of memory`,
  },
} as const satisfies Record<AnalysisLimit, { setting: keyof AnalysisSettings; over: unknown }>

/**
 * 422 `document_too_complex`: the analysis went over one of the hub's budgets and was ended;
 * nothing was stored.
 */
export function tooComplex(limit: AnalysisLimit, settings: AnalysisSettings): ApiError {
  const { setting, over } = BUDGETS[limit]
  const max = settings[setting]
  const variable = ANALYSIS_SETTING[setting]
  return new ApiError(
    'document_too_complex',
    `${over(max)}, the hub's limit (${variable}); nothing was stored.`,
    { limit, max, setting: variable },
  )
}

/**
 * 429 `queue_full`: the caller's own account (`handle`; undefined: callers without one, who share
 * a queue) has `limit` pushes, refetches and diffs under way: its limit, or its fair share while the hub
 * holds `queueMax` of them. `Retry-After` is one analysis's time limit, by when one of them has
 * ended if it runs.
 */
export function analysisQueueFull(
  handle: string | undefined,
  limit: number,
  settings: AnalysisSettings,
): ApiError {
  const many = limit === 1 ? 'an analysis' : `${limit} analyses`
  const who = handle === undefined ? 'Requests without an account' : `Your account (${handle})`
  const which =
    limit < settings.queuePerAccount
      ? `its share while the hub is busy (${ANALYSIS_SETTING.queueMax})`
      : `its limit (${ANALYSIS_SETTING.queuePerAccount})`
  return new ApiError(
    'queue_full',
    `${who} already has ${many} of documents waiting or under way (pushes, refetches, diffs), ` +
      `${which}; other accounts are not held up by them. ` +
      'Try again once one has been answered.',
    { queue: 'analysis', limit },
  ).retryAfter(Math.max(1, Math.ceil(settings.timeoutMs / 1000)))
}

/**
 * The client closed its connection before the analysis ended: the analysis was stopped and
 * nothing was stored. Nobody reads this answer; it is what the request's log line says.
 */
export function clientWentAway(): ApiError {
  return new ApiError(
    'malformed_request',
    'The client closed the connection before its document was analysed; nothing was stored.',
  )
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`
}
