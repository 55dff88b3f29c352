import type { Schema } from '../../model/schema.js'
import type { OasContext } from '../context.js'
import type { SchemaFields } from './schema-fields.js'

/**
 * The schema parser as its parts see it. Parsing a schema recurses into the builders of objects,
 * arrays, `allOf`, unions and `$ref` targets, which parse schemas in turn; they reach the parser
 * through the context (`ctx.schemas`) instead of importing parse-schema.ts back.
 */
export type SchemaParser = {
  readonly schema: (ctx: OasContext, value: unknown, depth: number) => Schema
  readonly fields: (ctx: OasContext, f: SchemaFields, depth: number) => Schema
}
