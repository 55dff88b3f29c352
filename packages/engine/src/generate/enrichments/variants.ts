import { EnrichmentError, formatEnrichmentPath } from './enrichment-error.js'
import { describeValue, isRecord } from './shape.js'

/** The variant every subject has; its artifacts carry no suffix. */
export const MAIN_VARIANT = 'main'

/** Lower-case words joined by single hyphens: `main`, `line-items`, `v2`. */
export const VARIANT_NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/

/**
 * The variant names of a subject's block, `main` first, then the others in config order. No
 * block (absent, `null` or `{}`) means `['main']`.
 *
 * Throws an {@link EnrichmentError} when the block is not an object, lacks `main`, or has a
 * badly named variant: one transform runs per variant, so generation cannot start without them.
 */
export function variantNamesOf(block: unknown, blockPath: readonly string[]): readonly string[] {
  if (block === undefined || block === null) return [MAIN_VARIANT]
  const where = `enrichments block '${formatEnrichmentPath(blockPath)}'`
  if (!isRecord(block)) {
    throw new EnrichmentError(
      blockPath,
      `${where} must be an object keyed by variant name, got ${describeValue(block)}`,
    )
  }
  const names = Object.keys(block)
  if (names.length === 0) return [MAIN_VARIANT]
  if (!names.includes(MAIN_VARIANT)) {
    const found = names.map((name) => `'${name}'`).join(', ')
    throw new EnrichmentError(
      blockPath,
      `${where} must include a '${MAIN_VARIANT}' variant (found ${found})`,
    )
  }
  for (const name of names) {
    if (!VARIANT_NAME.test(name)) {
      throw new EnrichmentError(
        [...blockPath, name],
        `${where} has an invalid variant name '${name}': names must match ${VARIANT_NAME.source}`,
      )
    }
  }
  return [MAIN_VARIANT, ...names.filter((name) => name !== MAIN_VARIANT)]
}

/**
 * The PascalCase suffix a variant adds to generated identifiers; `main` adds none.
 *
 * @example
 * ```ts
 * `Form${variantSuffix('line-items')}` // 'FormLineItems'
 * ```
 */
export function variantSuffix(name: string): string {
  if (!VARIANT_NAME.test(name)) {
    throw new Error(`invalid variant name '${name}': names must match ${VARIANT_NAME.source}`)
  }
  if (name === MAIN_VARIANT) return ''
  return name
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')
}
