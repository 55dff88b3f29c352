import type { OasModel, Schema } from '../../../model/index.js'
import type { SchemaKind } from '../rules.js'
import type { Comparison } from '../schema-diff.js'
import { canonical, type Scope } from '../scope.js'

/**
 * Where two schemas are compared: the comparison, the scope that collects what differs, the
 * JSON pointer and property path of the place, what masks it (readOnly, writeOnly) and how deep
 * it is.
 */
export class Place {
  constructor(
    readonly cmp: Comparison,
    readonly scope: Scope,
    readonly pointer: string,
    readonly at = '',
    readonly mask = 0,
    readonly depth = 0,
  ) {}

  fact(inKind: SchemaKind, outKind: SchemaKind, text: string, mask = this.mask): void {
    this.scope.schema(inKind, outKind, this.pointer, this.at, text, mask)
  }

  /** A part of the schema here: `/items`, `/properties/name` … */
  part(pointer: string, at: string, mask = this.mask): Place {
    return new Place(this.cmp, this.scope, `${this.pointer}${pointer}`, at, mask, this.depth + 1)
  }
}

/** The schema a ref names (nullable if the ref or any hop is), or the schema itself. */
export function resolved(model: OasModel, schema: Schema): Schema {
  if (schema.kind !== 'ref') return schema
  const seen = new Set<string>()
  let current: Schema = schema
  let nullable = schema.nullable
  while (current.kind === 'ref') {
    if (seen.has(current.refName) || !Object.hasOwn(model.components.schemas, current.refName))
      return { kind: 'unknown', nullable: true }
    seen.add(current.refName)
    current = model.components.schemas[current.refName]!
    nullable ||= current.nullable
  }
  return nullable === current.nullable ? current : { ...current, nullable }
}

export function shown(value: unknown): string {
  return value === undefined ? 'none' : `\`${JSON.stringify(value)}\``
}

/** The kinds of a keyword whose value can be set, unset or changed (a pattern, a default …). */
export type SettingKinds = {
  readonly added: SchemaKind
  readonly removed: SchemaKind
  readonly changed: SchemaKind
}

/** One fact when the keyword `name` went from `a` to `b` (both compared by content). */
export function compareSetting(
  place: Place,
  name: string,
  a: unknown,
  b: unknown,
  kinds: SettingKinds,
): void {
  if (canonical(a) === canonical(b)) return
  if (a === undefined) place.fact(kinds.added, kinds.added, `the ${name} ${shown(b)} was added`)
  else if (b === undefined)
    place.fact(kinds.removed, kinds.removed, `the ${name} ${shown(a)} was removed`)
  else
    place.fact(kinds.changed, kinds.changed, `the ${name} changed from ${shown(a)} to ${shown(b)}`)
}

export function typeName(schema: Schema): string {
  switch (schema.kind) {
    case 'unknown':
      return 'any value'
    case 'void':
      return 'no value'
    case 'union':
      return schema.mode
    default:
      return schema.kind
  }
}

/** A oneOf/anyOf alternative as messages name it: its component, or its type. */
export function memberName(schema: Schema): string {
  return schema.kind === 'ref' ? `\`${schema.refName}\`` : typeName(schema)
}
