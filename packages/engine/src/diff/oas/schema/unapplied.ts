import type { Schema, StringSchema } from '../../../model/index.js'
import { canonical } from '../scope.js'
import { compareCounts, compareNumbers, compareSizes, compareStrings } from './limits.js'
import { type Place, shown, typeName } from './place.js'

const NONE: Readonly<Record<string, unknown>> = Object.freeze({})

/** The format as written: the node's own, or one the model does not represent (`uint8`). */
export function writtenFormat(schema: Schema): string | undefined {
  const format = ('format' in schema ? schema.format : undefined) ?? schema.unapplied?.format
  return typeof format === 'string' ? format : undefined
}

function article(name: string): string {
  return `${/^[aeiou]/.test(name) ? 'an' : 'a'} ${name}`
}

/**
 * The keywords a node does not hold (formats aside, compared with the node's own). Without a
 * type they still hold for values of their type, so they are compared as that type's are; on a
 * typed node (`minItems` on a string) validators ignore them, and a change is only noted.
 */
export function compareUnapplied(place: Place, old: Schema, next: Schema): void {
  const [a, b] = [old.unapplied ?? NONE, next.unapplied ?? NONE]
  if (a === b) return
  if (old.kind === 'unknown' && next.kind === 'unknown') {
    compareStrings(place, a as StringSchema, b as StringSchema)
    compareNumbers(place, a, b)
    compareCounts(place, a, b)
    compareSizes(place, a, b)
    return
  }
  for (const name of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (name === 'format' || canonical(a[name]) === canonical(b[name])) continue
    place.fact(
      'inapplicable-keyword-changed',
      'inapplicable-keyword-changed',
      `${name}, which does not apply to ${article(typeName(next))}, changed from ${shown(a[name])} to ${shown(b[name])}`,
    )
  }
}
