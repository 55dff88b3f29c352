import type { Schema, UnionSchema } from '../../model/schema.js'
import { describeValue, isObject, type OasContext } from '../context.js'
import { annotate, overlay, wrapperAnnotations, type Mutable } from './annotations.js'
import { mergeSchemas } from './merge.js'
import { bareOf, readSchemaFields, type SchemaFields } from './schema-fields.js'
import { mergeResolver } from './schema-ref.js'
import { readDiscriminator } from './type-builders.js'
import { nullableOf } from './values.js'

export function parseUnion(ctx: OasContext, f: SchemaFields, depth: number): Schema {
  let nullable = nullableOf(ctx, f)
  const groups: Schema[][] = []
  for (const mode of ['oneOf', 'anyOf'] as const) {
    const list = f[mode]
    if (list === undefined) continue
    if (!Array.isArray(list))
      return ctx.fail(`"${mode}" must be an array, got ${describeValue(list)}`)
    if (list.length === 0) return ctx.fail(`"${mode}" array is empty`)
    ctx.push(mode)
    const members: Schema[] = []
    list.forEach((value, index) => {
      if (
        ctx.dialect === '3.1' &&
        isObject(value) &&
        value.type === 'null' &&
        Object.keys(value).length === 1
      ) {
        nullable = true
        return
      }
      ctx.push(String(index))
      members.push(parseMember(ctx, f, value, depth + 1))
      ctx.pop()
    })
    ctx.pop()
    groups.push(members)
  }
  // Keywords beside oneOf/anyOf other than `type` (properties, required …) hold for every member.
  const sharedFields = f.without('oneOf', 'anyOf', 'type')
  const shared =
    sharedFields.constraints > 0
      ? ctx.schemas.fields(ctx, bareOf(withType(sharedFields, f.type)), depth)
      : undefined
  const resolve = mergeResolver(ctx)
  const unions = groups.map((members) =>
    toUnion(
      shared ? members.map((member) => mergeSchemas(member, shared, resolve)) : members,
      f.oneOf !== undefined ? 'oneOf' : 'anyOf',
      nullable,
    ),
  )
  let node = unions[0]!
  if (unions.length > 1) node = mergeSchemas(node, unions[1]!, resolve)
  if (node.kind === 'union') {
    const union = { ...node } as Mutable<UnionSchema>
    if (f.discriminator !== undefined) union.discriminator = readDiscriminator(ctx, f.discriminator)
    return annotate(ctx, f, union)
  }
  return overlay(node, wrapperAnnotations(f, node, nullable))
}

function withType(fields: SchemaFields, type: unknown): SchemaFields {
  if (typeof type === 'string') fields.type = type
  return fields
}

/** An inline member without a type takes the wrapper's `type` (`type: string, oneOf: [{enum}, …]`). */
function parseMember(
  ctx: OasContext,
  wrapper: SchemaFields,
  value: unknown,
  depth: number,
): Schema {
  if (typeof wrapper.type !== 'string' || !isObject(value) || typeof value.$ref === 'string')
    return ctx.schemas.schema(ctx, value, depth)
  const fields = readSchemaFields(ctx, value)
  if (
    fields.type === undefined &&
    fields.allOf === undefined &&
    fields.oneOf === undefined &&
    fields.anyOf === undefined
  ) {
    fields.type = wrapper.type
  }
  return ctx.schemas.fields(ctx, fields, depth)
}

function toUnion(members: Schema[], mode: 'oneOf' | 'anyOf', nullable: boolean): Schema {
  if (members.length === 1)
    return overlay(members[0]!, { nullable: nullable || members[0]!.nullable })
  return Object.freeze({ kind: 'union', mode, members: Object.freeze(members), nullable })
}
