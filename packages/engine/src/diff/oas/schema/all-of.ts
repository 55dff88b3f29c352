import type { Schema } from '../../../model/index.js'
import type { Place } from './place.js'

/** The components a schema written as an allOf names; a `$ref` alone is an allOf of itself. */
function members(schema: Schema): readonly string[] | undefined {
  return schema.allOfRefs ?? (schema.kind === 'ref' ? [schema.refName] : undefined)
}

/**
 * The `$ref` members of an allOf, added or removed. The parser merges the members, so what one
 * adds to or takes from the merged schema is compared there; this names the member itself, which
 * may change nothing else (a component with no new constraint).
 */
export function compareAllOf(place: Place, old: Schema, next: Schema): void {
  for (const name of old.allOfRefs ?? []) place.cmp.allOfMembers.add(name)
  for (const name of next.allOfRefs ?? []) place.cmp.allOfMembers.add(name)
  if (!old.allOfRefs && !next.allOfRefs) return
  const [before, after] = [members(old), members(next)]
  if (!before || !after) return
  for (const name of after)
    if (!before.includes(name))
      place.fact(
        'all-of-member-added',
        'all-of-member-added',
        `the allOf member \`${name}\` was added`,
      )
  for (const name of before)
    if (!after.includes(name))
      place.fact(
        'all-of-member-removed',
        'all-of-member-removed',
        `the allOf member \`${name}\` was removed`,
      )
}
