import type { Schema, VoidSchema } from '../../model/schema.js'
import { describeValue, isObject, type OasContext } from '../context.js'
import { AllOfCycleFailure, ParseFailure } from '../failures.js'
import { annotate, overlay, wrapperAnnotations, type Mutable } from './annotations.js'
import { MergeConflict, mergeSchemas } from './merge.js'
import { bareOf, readSchemaFields, type SchemaFields } from './schema-fields.js'
import { mergeResolver } from './schema-ref.js'
import { readDiscriminator } from './type-builders.js'
import { nullableOf } from './values.js'

/**
 * `allOf`: one structural member (a `$ref` with a description or `nullable`, say) stays that
 * member with the wrapper's annotations, so a ref stays lazy; several are merged eagerly.
 */
export function parseAllOf(ctx: OasContext, f: SchemaFields, depth: number): Schema {
  const list = f.allOf
  if (!Array.isArray(list)) return ctx.fail(`"allOf" must be an array, got ${describeValue(list)}`)
  const rest = f.without('allOf')
  ctx.push('allOf')
  const members: { index: number; schema: Schema }[] = []
  list.forEach((value, index) => {
    ctx.push(String(index))
    if (isObject(value) && typeof value.$ref !== 'string') {
      const fields = readSchemaFields(ctx, value)
      // A member with annotations only (a description, say) constrains nothing.
      if (
        fields.constraints > 0 ||
        fields.oneOf !== undefined ||
        fields.anyOf !== undefined ||
        fields.allOf !== undefined
      ) {
        members.push({ index, schema: ctx.schemas.fields(ctx, fields, depth + 1) })
      } else {
        rest.title ??= fields.title
        rest.description ??= fields.description
      }
    } else {
      members.push({ index, schema: ctx.schemas.schema(ctx, value, depth + 1) })
    }
    ctx.pop()
  })
  ctx.pop()
  const restIsStructural =
    rest.constraints > 0 || rest.oneOf !== undefined || rest.anyOf !== undefined
  if (members.length === 0) return ctx.schemas.fields(ctx, rest, depth)
  const nullable = nullableOf(ctx, rest)
  const allOfRefs = Object.freeze(
    members.map(({ schema }) => (schema.kind === 'ref' ? schema.refName : null)),
  )
  if (members.length === 1 && !restIsStructural) {
    const only = members[0]!.schema
    const annotations = wrapperAnnotations(rest, only, nullable)
    // A `$ref` member alone stays the ref, which names it already.
    return overlay(only, only.kind === 'ref' ? annotations : { ...annotations, allOfRefs })
  }
  const parsed = members.map((member) => member.schema)
  if (restIsStructural) parsed.push(ctx.schemas.fields(ctx, bareOf(rest), depth))
  const resolve = mergeResolver(ctx)
  let merged = resolve(parsed[0]!)
  for (let i = 1; i < parsed.length; i++) {
    ctx.push('allOf')
    ctx.push(String(members[i]?.index ?? list.length))
    try {
      merged = mergeSchemas(merged, parsed[i]!, resolve, (conflict) =>
        ctx.failLocally(new ParseFailure(conflict.message, [...ctx.trail])),
      )
    } catch (error) {
      // A merge failure knows what went wrong but not where: it happened at this member.
      if (!(error instanceof MergeConflict)) {
        if (error instanceof ParseFailure && !(error instanceof AllOfCycleFailure) && !error.at)
          ctx.fail(error.message)
        throw error
      }
      // No value satisfies every member: this schema is `never`, the rest of the unit stands. (A
      // clash in an optional property made only that property `never`, and never gets here.)
      ctx.failLocally(new ParseFailure(error.message, [...ctx.trail]))
      return unsatisfiable(rest, nullable)
    } finally {
      ctx.pop()
      ctx.pop()
    }
  }
  const node = { ...merged } as Mutable<Schema>
  node.allOfRefs = allOfRefs
  if (nullable) node.nullable = true
  if (rest.discriminator !== undefined && node.kind === 'object')
    node.discriminator = readDiscriminator(ctx, rest.discriminator)
  delete node.default
  delete node.invalidDefault
  delete node.example
  return annotate(ctx, rest, node)
}

/** The `void` node an unsatisfiable `allOf` becomes, keeping the wrapper's documentation. */
function unsatisfiable(rest: SchemaFields, nullable: boolean): VoidSchema {
  const node: Mutable<VoidSchema> = { kind: 'void', nullable }
  if (typeof rest.title === 'string') node.title = rest.title
  if (typeof rest.description === 'string') node.description = rest.description
  if (rest.deprecated === true) node.deprecated = true
  return Object.freeze(node)
}
