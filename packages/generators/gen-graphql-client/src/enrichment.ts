import { z } from 'zod'

export const DEFAULT_DEPTH = 2
export const MAX_DEPTH = 10

/**
 * One variant of one root field, under
 * `settings.enrichments['@svc/gen-graphql-client'][rootKind][fieldName][variant]`.
 */
export const enrichmentSchema = z.object({
  /** A selection set, used as written: `{ login name }`. */
  selection: z.string().optional(),
  /** How many selection sets the generated selection goes down; ignored beside `selection`. */
  depth: z.int().min(1).max(MAX_DEPTH).optional(),
})

export type GraphqlClientEnrichment = z.output<typeof enrichmentSchema>

/** `_generator.depth`, the depth of every root field that does not set its own. */
export function generatorDepth(settings: Readonly<Record<string, unknown>>): number {
  const depth = settings.depth
  if (depth === undefined) return DEFAULT_DEPTH
  if (typeof depth !== 'number' || !Number.isInteger(depth) || depth < 1 || depth > MAX_DEPTH)
    throw new Error(
      `The generator setting 'depth' must be an integer from 1 to ${MAX_DEPTH}, got ${JSON.stringify(depth)}`,
    )
  return depth
}
