import type { OasModel, ObjectSchema, Schema } from '../../../model/index.js'
import { canonical } from '../scope.js'
import { resolved } from './place.js'

/** Past this depth two schemas are taken to overlap: the answer stays conservative. */
const MAX_OVERLAP_DEPTH = 8

/**
 * Whether some value may be valid against both schemas. The answer is conservative: `false` only
 * where the schemas provably accept no common value (other JSON types, disjoint enums or consts,
 * objects that both require a property with disjoint values, or one requiring a property the other
 * forbids); anything else may overlap. `integer` and `number` overlap, and so do two nullable
 * schemas (both accept null).
 */
export function mayOverlap(model: OasModel, left: Schema, right: Schema, depth = 0): boolean {
  if (depth > MAX_OVERLAP_DEPTH) return true
  const a = resolved(model, left)
  const b = resolved(model, right)
  if (a.kind === 'void' || b.kind === 'void') return false
  if (a.nullable && b.nullable) return true
  if (a.kind === 'union') return a.members.some((m) => mayOverlap(model, m, b, depth + 1))
  if (b.kind === 'union') return b.members.some((m) => mayOverlap(model, a, m, depth + 1))
  if (a.kind === 'unknown' || b.kind === 'unknown') return true
  if (!sameJsonType(a, b)) return false
  if (!valuesMeet(a, b)) return false
  if (a.kind === 'array' && b.kind === 'array') {
    // Both accept the empty array unless one asks for items.
    if (!a.minItems && !b.minItems) return true
    return mayOverlap(model, a.items, b.items, depth + 1)
  }
  if (a.kind === 'object' && b.kind === 'object') return objectsMeet(model, a, b, depth)
  return true
}

function sameJsonType(a: Schema, b: Schema): boolean {
  const numeric = (s: Schema) => s.kind === 'integer' || s.kind === 'number'
  return a.kind === b.kind || (numeric(a) && numeric(b))
}

function allowed(schema: Schema): readonly unknown[] | undefined {
  if (schema.const !== undefined) return [schema.const]
  return (schema as { enum?: readonly unknown[] }).enum
}

function valuesMeet(a: Schema, b: Schema): boolean {
  const [x, y] = [allowed(a), allowed(b)]
  if (!x || !y) return true
  const left = new Set(x.map(canonical))
  return y.some((value) => left.has(canonical(value)))
}

function objectsMeet(model: OasModel, a: ObjectSchema, b: ObjectSchema, depth: number): boolean {
  const forbids = (o: ObjectSchema, name: string) =>
    o.additionalProperties === false && !Object.hasOwn(o.properties, name)
  if (a.required.some((name) => forbids(b, name))) return false
  if (b.required.some((name) => forbids(a, name))) return false
  for (const name of a.required) {
    if (!b.required.includes(name)) continue
    if (!Object.hasOwn(a.properties, name) || !Object.hasOwn(b.properties, name)) continue
    if (!mayOverlap(model, a.properties[name]!, b.properties[name]!, depth + 1)) return false
  }
  return true
}
