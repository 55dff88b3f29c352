import { sortInDocumentOrder } from './document-order.js'
import { createWarning, warningMessages, type EnrichmentWarning } from './enrichment-warning.js'
import { pathKey, type PathTree } from './path-tree.js'
import { blockDepth, type GeneratorKind } from './routing.js'
import { describeValue, isRecord } from './shape.js'
import { suggestKey } from './suggest-key.js'

/** The run-wide bag at the top level; never a generator id, never flagged. */
export const STACK_SCOPE = '_stack'
/** The per-generator bag beside the subject keys; never a subject, never flagged. */
export const GENERATOR_SCOPE = '_generator'

/** What the run left behind for the audit to compare with the configuration. */
export type AuditInput = {
  readonly enrichments: unknown
  readonly generators: ReadonlyMap<string, GeneratorKind>
  readonly skippedGenerators: ReadonlySet<string>
  /** `pathKey`s of the variant blocks of subjects excluded by skip/include. */
  readonly skippedSubjects: ReadonlySet<string>
  readonly consumed: PathTree
  /** Warnings found while reading, such as `UNKNOWN_ENRICHMENT_KEY`. */
  readonly recorded: readonly EnrichmentWarning[]
}

/**
 * The warnings of SPEC §7.7 for one run: every configured entry at block depth that no lookup
 * consumed, every unknown generator id, and what the reads recorded. Deduplicated on
 * `(type, path)` and sorted in document order, so the same input gives the same list.
 */
export function auditEnrichments(input: AuditInput): readonly EnrichmentWarning[] {
  const warnings = [...input.recorded]
  const root = input.enrichments
  if (isRecord(root)) {
    for (const [id, node] of Object.entries(root)) {
      if (id !== STACK_SCOPE) warnings.push(...auditGenerator(id, node, input))
    }
  } else if (root !== undefined && root !== null) {
    warnings.push(unusable([], root))
  }
  return sortInDocumentOrder(root, dedupe(warnings))
}

function auditGenerator(id: string, node: unknown, input: AuditInput): EnrichmentWarning[] {
  const kind = input.generators.get(id)
  const skipped = input.skippedGenerators.has(id)
  if (kind === undefined && !skipped) {
    const suggestion = suggestKey(id, [...input.generators.keys(), ...input.skippedGenerators])
    return [
      createWarning('UNKNOWN_GENERATOR_ID', [id], warningMessages.unknownGenerator(id), suggestion),
    ]
  }
  if (node === null) return []
  if (!isRecord(node)) return [unusable([id], node)]
  if (skipped || kind === undefined) {
    const hasEntries = Object.keys(node).some((key) => key !== GENERATOR_SCOPE)
    const message = warningMessages.skippedGenerator(id)
    return hasEntries ? [createWarning('SKIPPED_GENERATOR_ENRICHMENT', [id], message)] : []
  }
  const warnings: EnrichmentWarning[] = []
  for (const [first, child] of Object.entries(node)) {
    if (first === GENERATOR_SCOPE) continue
    if (blockDepth(kind) === 1) {
      warnings.push(...checkBlock([id, first], input))
    } else if (isRecord(child)) {
      for (const second of Object.keys(child))
        warnings.push(...checkBlock([id, first, second], input))
    } else if (child !== null) {
      warnings.push(unusable([id, first], child))
    }
  }
  return warnings
}

/** A configured variant block: fine when consumed, info when its subject was skipped. */
function checkBlock(path: readonly string[], input: AuditInput): EnrichmentWarning[] {
  const divergence = input.consumed.divergence(path)
  if (!divergence) return []
  if (input.skippedSubjects.has(pathKey(path))) {
    return [createWarning('SKIPPED_SUBJECT_ENRICHMENT', path, warningMessages.skippedSubject(path))]
  }
  // The id matched a generator of the run, so only the keys below it can be typos.
  const suggestion =
    divergence.index === 0 ? undefined : suggestKey(path[divergence.index]!, divergence.siblings)
  const message = warningMessages.unconsumed(path)
  return [createWarning('UNCONSUMED_ENRICHMENT', path, message, suggestion)]
}

/** Nothing can read a non-object where keys are expected, whatever lookups passed through it. */
function unusable(path: readonly string[], value: unknown): EnrichmentWarning {
  const message = warningMessages.unusable(path, describeValue(value))
  return createWarning('UNCONSUMED_ENRICHMENT', path, message)
}

function dedupe(warnings: readonly EnrichmentWarning[]): EnrichmentWarning[] {
  const seen = new Map<string, EnrichmentWarning>()
  for (const warning of warnings) {
    const key = `${warning.type}\u0000${pathKey(warning.path)}`
    if (!seen.has(key)) seen.set(key, warning)
  }
  return [...seen.values()]
}
