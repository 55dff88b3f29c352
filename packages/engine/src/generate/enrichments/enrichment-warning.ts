import { formatEnrichmentPath } from './enrichment-error.js'

/** The closed list of enrichment warning types (SPEC §7.7); each has one fixed level. */
export const ENRICHMENT_WARNING_LEVELS = Object.freeze({
  UNCONSUMED_ENRICHMENT: 'warning',
  UNKNOWN_GENERATOR_ID: 'warning',
  UNKNOWN_ENRICHMENT_KEY: 'warning',
  SKIPPED_SUBJECT_ENRICHMENT: 'info',
  SKIPPED_GENERATOR_ENRICHMENT: 'info',
} as const)

export type EnrichmentWarningType = keyof typeof ENRICHMENT_WARNING_LEVELS
export type EnrichmentWarningLevel = (typeof ENRICHMENT_WARNING_LEVELS)[EnrichmentWarningType]

/** One entry of `manifest.enrichmentWarnings`. Warnings never change what a generator receives. */
export type EnrichmentWarning = {
  readonly level: EnrichmentWarningLevel
  readonly type: EnrichmentWarningType
  /** The routing key sequence under `client.json#settings.enrichments`, generator id first. */
  readonly path: readonly string[]
  readonly message: string
  /** The nearest declared or consumed key, for a near-miss typo. */
  readonly suggestion?: string
}

export function createWarning(
  type: EnrichmentWarningType,
  path: readonly string[],
  message: string,
  suggestion?: string,
): EnrichmentWarning {
  const hint = suggestion === undefined ? '' : ` (did you mean '${suggestion}'?)`
  return Object.freeze({
    level: ENRICHMENT_WARNING_LEVELS[type],
    type,
    path: Object.freeze([...path]),
    message: message + hint,
    ...(suggestion !== undefined && { suggestion }),
  })
}

/** The message texts, kept together so the manifest and the docs read the same. */
export const warningMessages = {
  unconsumed: (path: readonly string[]) =>
    `enrichment entry '${formatEnrichmentPath(path)}' was never consumed — no matching generator or subject in this run`,
  unusable: (path: readonly string[], got: string) =>
    `enrichment entry '${formatEnrichmentPath(path)}' was never consumed — expected an object, got ${got}`,
  unknownGenerator: (id: string) => `enrichments key '${id}' matches no generator in this run`,
  unknownKey: (path: readonly string[], generatorId: string) =>
    `enrichment key '${formatEnrichmentPath(path)}' is not declared by the enrichment schema of '${generatorId}' and was ignored`,
  skippedSubject: (path: readonly string[]) =>
    `enrichment entry '${formatEnrichmentPath(path)}' was not used — its subject is excluded by skip/include in this run`,
  skippedGenerator: (id: string) =>
    `enrichments for '${id}' were not used — the generator is skipped in this run`,
}
