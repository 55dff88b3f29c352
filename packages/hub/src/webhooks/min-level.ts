import type { Changelog } from '@svc/engine'
import type { WebhookMinLevel } from '../store/schema.js'

/**
 * The minimum levels of the webhooks a revision event goes to: `info` for any revision that
 * differs (every change is at least info, and a webhook that asks for nothing more keeps getting
 * every event it got before levels existed), `warning` when it has a warning or a breaking change,
 * `breaking` when it has a breaking one.
 */
export function minLevelsReached(
  changelog: Pick<Changelog, 'summary' | 'counts'>,
): WebhookMinLevel[] {
  if (!changelog.summary.diff) return []
  const { breaking, warning } = changelog.counts
  const levels: WebhookMinLevel[] = ['info']
  if (breaking + warning > 0) levels.push('warning')
  if (breaking > 0) levels.push('breaking')
  return levels
}
