import { z } from 'zod'
import { EnrichmentError, formatEnrichmentPath } from './enrichment-error.js'
import { isRecord } from './shape.js'
import { suggestKey } from './suggest-key.js'

/** A leaf key the schema does not declare; `path` runs from the payload root to the key. */
export type UndeclaredKey = {
  readonly path: readonly string[]
  readonly suggestion?: string
}

/** The object schema under wrappers that keep the input's shape (`optional`, `default`, …). */
function objectDefOf(schema: z.core.$ZodType): z.core.$ZodObjectDef | undefined {
  const def = (schema as z.core.$ZodTypes)._zod.def
  switch (def.type) {
    case 'object':
      return def
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return objectDefOf(def.innerType)
    case 'pipe':
      return objectDefOf(def.in)
    case 'lazy':
      return objectDefOf(def.getter())
    default:
      return undefined
  }
}

/**
 * Drops the keys that the schema's `z.object` shapes do not declare, at every nesting level the
 * value and the schema share, and lists them. Objects that accept any key (`z.looseObject`,
 * `.catchall(…)`) keep theirs. The input is not modified.
 */
export function stripUndeclaredKeys(
  schema: z.core.$ZodType,
  value: unknown,
  at: readonly string[] = [],
  undeclared: UndeclaredKey[] = [],
): { value: unknown; undeclared: UndeclaredKey[] } {
  const def = objectDefOf(schema)
  if (!def || !isRecord(value)) return { value, undeclared }
  const declared = Object.keys(def.shape)
  const open = def.catchall !== undefined && def.catchall._zod.def.type !== 'never'
  const kept: Record<string, unknown> = {}
  for (const [key, child] of Object.entries(value)) {
    const field = Object.hasOwn(def.shape, key) ? def.shape[key] : undefined
    if (field) {
      kept[key] = stripUndeclaredKeys(field, child, [...at, key], undeclared).value
    } else if (open) {
      kept[key] = child
    } else {
      const suggestion = suggestKey(key, declared)
      undeclared.push({ path: [...at, key], ...(suggestion !== undefined && { suggestion }) })
    }
  }
  return { value: kept, undeclared }
}

/**
 * Validates a payload; a rejection throws an {@link EnrichmentError} whose one-line message
 * names the payload's path and each of zod's issues.
 */
export function parsePayload(
  schema: z.core.$ZodType,
  value: unknown,
  path: readonly string[],
): unknown {
  const result = z.safeParse(schema, value)
  if (result.success) return result.data
  const issues = result.error.issues.map((issue) => {
    const message = issue.message.replace(/\s*\n\s*/g, ' ')
    if (issue.path.length === 0) return message
    return `${issue.path.map((segment) => String(segment)).join(' → ')}: ${message}`
  })
  throw new EnrichmentError(
    path,
    `invalid enrichment '${formatEnrichmentPath(path)}': ${issues.join('; ')}`,
  )
}
