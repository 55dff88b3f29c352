import type { OasModel, Schema } from '../../model/index.js'

/**
 * Whether a value the schema allows may be of one of `kinds` ('object', 'array'): what decides
 * whether `explode` changes what goes on the wire. A schema that allows anything, or a ref that
 * leads nowhere, may be either.
 */
export function mayBe(
  model: OasModel,
  schema: Schema,
  kinds: ReadonlyArray<'object' | 'array'>,
  depth = 0,
): boolean {
  if (depth > 16) return true
  switch (schema.kind) {
    case 'object':
    case 'array':
      return kinds.includes(schema.kind)
    case 'unknown':
      return true
    case 'union':
      return schema.members.some((member) => mayBe(model, member, kinds, depth + 1))
    case 'ref': {
      const target = Object.hasOwn(model.components.schemas, schema.refName)
        ? model.components.schemas[schema.refName]
        : undefined
      return target === undefined || mayBe(model, target, kinds, depth + 1)
    }
    default:
      return false
  }
}
