import type { ObjectSchema, Schema } from '@svc/engine'

/**
 * What the keys of an object that `properties` does not name may hold, `patternProperties`
 * (3.1) folded in: `additionalProperties` as written when there are no patterns, or when it is
 * `true` or absent (any other key is allowed then anyway); otherwise the typed
 * `additionalProperties` or any pattern's schema (`false` leaves the patterns' alone). Which
 * pattern a key matches is not kept: its value may be any of them.
 */
export function extraKeys(schema: ObjectSchema): Schema | boolean | undefined {
  const patterns = Object.values(schema.patternProperties ?? {})
  const extra = schema.additionalProperties
  if (patterns.length === 0 || extra === true || extra === undefined) return extra
  const members = extra === false ? patterns : [extra, ...patterns]
  if (members.length === 1) return members[0]
  return { kind: 'union', mode: 'anyOf', members, nullable: false }
}

/**
 * The pattern every key of an object must match and the schema of its values, when the object
 * names no property, has one pattern and is closed to every other key: a check of its keys is
 * then exact.
 */
export function onlyKeyPattern(
  schema: ObjectSchema,
): { pattern: string; value: Schema } | undefined {
  if (schema.additionalProperties !== false || Object.keys(schema.properties).length > 0)
    return undefined
  const entries = Object.entries(schema.patternProperties ?? {})
  const [only] = entries
  return entries.length === 1 && only ? { pattern: only[0], value: only[1] } : undefined
}
