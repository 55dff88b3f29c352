import type { Schema } from '../../../model/index.js'
import type { Place } from './place.js'

type Members = readonly (string | null)[]

/** The members of a schema written as an allOf; a `$ref` alone is an allOf of itself. */
function members(schema: Schema): Members | undefined {
  return schema.allOfRefs ?? (schema.kind === 'ref' ? [schema.refName] : undefined)
}

function inline(list: Members): number {
  return list.filter((name) => name === null).length
}

/**
 * The `$ref` members of an allOf, added or removed. The parser merges the members, so what one
 * adds to or takes from the merged schema is compared there; this names the member itself, which
 * may change nothing else (a component with no new constraint). A `$ref` that became an inline
 * member, or the reverse, is judged by its content alone, as a `$ref` and its inlined copy are.
 */
export function compareAllOf(place: Place, old: Schema, next: Schema): void {
  for (const name of [...(old.allOfRefs ?? []), ...(next.allOfRefs ?? [])])
    if (name !== null) place.cmp.allOfMembers.add(name)
  if (!old.allOfRefs && !next.allOfRefs) return
  const [before, after] = [members(old), members(next)]
  if (!before || !after) return
  const [inlined, extracted] = [inline(after) - inline(before), inline(before) - inline(after)]
  const added = after.filter((name) => name !== null && !before.includes(name))
  const removed = before.filter((name) => name !== null && !after.includes(name))
  for (const name of added.slice(Math.max(0, extracted)))
    place.fact(
      'all-of-member-added',
      'all-of-member-added',
      `the allOf member \`${name}\` was added`,
    )
  for (const name of removed.slice(Math.max(0, inlined)))
    place.fact(
      'all-of-member-removed',
      'all-of-member-removed',
      `the allOf member \`${name}\` was removed`,
    )
}
