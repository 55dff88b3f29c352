/**
 * @module enrichments: the `settings.enrichments` of `client.json` as the generator runner sees
 * them. Reads are routed by `[generator id, …subject keys, variant]`, validated by each
 * generator's zod schema and recorded, so that after the run `audit()` can report what was
 * configured but never read (SPEC §7.7, REFERENCE §2). Internal to the engine for now.
 */
export {
  createEnrichments,
  type EnrichmentGenerator,
  type EnrichmentPayload,
  type Enrichments,
  type EnrichmentsOptions,
} from './enrichments.js'
export { EnrichmentError, formatEnrichmentPath } from './enrichment-error.js'
export {
  ENRICHMENT_WARNING_LEVELS,
  type EnrichmentWarning,
  type EnrichmentWarningLevel,
  type EnrichmentWarningType,
} from './enrichment-warning.js'
export { GENERATOR_SCOPE, STACK_SCOPE } from './audit.js'
export {
  blockDepth,
  blockRouteOf,
  generatorKindOf,
  routeOf,
  subjectKeys,
  type GeneratorKind,
  type Subject,
  type SubjectKind,
} from './routing.js'
export { MAIN_VARIANT, VARIANT_NAME, variantSuffix } from './variants.js'
