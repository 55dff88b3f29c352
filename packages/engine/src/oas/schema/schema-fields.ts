import type { OasContext, RawObject } from '../context.js'
import { knownKeys } from '../keys.js'

/**
 * The keywords of one raw schema, read in a single pass over its keys. Raw objects from
 * `JSON.parse` come in thousands of shapes, so every named property read on them is slow; one
 * `for…in` into this fixed-shape record keeps the rest of the parser's reads fast.
 */
export class SchemaFields {
  type: unknown = undefined
  properties: unknown = undefined
  required: unknown = undefined
  additionalProperties: unknown = undefined
  minProperties: unknown = undefined
  maxProperties: unknown = undefined
  items: unknown = undefined
  minItems: unknown = undefined
  maxItems: unknown = undefined
  uniqueItems: unknown = undefined
  format: unknown = undefined
  pattern: unknown = undefined
  minLength: unknown = undefined
  maxLength: unknown = undefined
  minimum: unknown = undefined
  maximum: unknown = undefined
  exclusiveMinimum: unknown = undefined
  exclusiveMaximum: unknown = undefined
  multipleOf: unknown = undefined
  enum: unknown = undefined
  const: unknown = undefined
  allOf: unknown = undefined
  oneOf: unknown = undefined
  anyOf: unknown = undefined
  discriminator: unknown = undefined
  nullable: unknown = undefined
  title: unknown = undefined
  description: unknown = undefined
  default: unknown = undefined
  example: unknown = undefined
  examples: unknown = undefined
  deprecated: unknown = undefined
  readOnly: unknown = undefined
  writeOnly: unknown = undefined
  not: unknown = undefined
  if: unknown = undefined
  then: unknown = undefined
  else: unknown = undefined
  prefixItems: unknown = undefined
  contains: unknown = undefined
  minContains: unknown = undefined
  maxContains: unknown = undefined
  unevaluatedItems: unknown = undefined
  patternProperties: unknown = undefined
  propertyNames: unknown = undefined
  dependentRequired: unknown = undefined
  dependentSchemas: unknown = undefined
  unevaluatedProperties: unknown = undefined
  contentMediaType: unknown = undefined
  contentEncoding: unknown = undefined
  contentSchema: unknown = undefined
  extensions: Record<string, unknown> | undefined = undefined
  /** Keywords that constrain values (as opposed to annotations), other than composition. */
  constraints = 0
  /** Keys the raw schema has; -1 for a record derived from another (see {@link without}). */
  keys = 0

  /** Whether the schema says no more than its type, format and nullability (most leaves do). */
  get isPlain(): boolean {
    const expected =
      (this.type === undefined ? 0 : 1) +
      (this.format === undefined ? 0 : 1) +
      (this.nullable === undefined ? 0 : 1)
    return this.keys === expected
  }

  /** A copy without the given keywords (for an `allOf` wrapper's own keywords, say). */
  without(...keys: (keyof SchemaFields)[]): SchemaFields {
    const copy = Object.assign(new SchemaFields(), this)
    for (const key of keys) (copy as unknown as Record<string, unknown>)[key] = undefined
    copy.constraints = copy.countConstraints()
    copy.keys = -1
    return copy
  }

  /** Clears a pooled record for the next schema at its nesting level. */
  reset(): this {
    this.type = this.properties = this.required = this.additionalProperties = undefined
    this.minProperties = this.maxProperties = this.items = this.minItems = this.maxItems = undefined
    this.uniqueItems = this.format = this.pattern = this.minLength = this.maxLength = undefined
    this.minimum = this.maximum = this.exclusiveMinimum = this.exclusiveMaximum = undefined
    this.multipleOf =
      this.enum =
      this.const =
      this.allOf =
      this.oneOf =
      this.anyOf =
      this.discriminator =
        undefined
    this.nullable = this.title = this.description = this.default = this.example = undefined
    this.examples = this.deprecated = this.readOnly = this.writeOnly = this.extensions = undefined
    this.not = this.if = this.then = this.else = this.prefixItems = this.contains = undefined
    this.minContains = this.maxContains = this.unevaluatedItems = this.patternProperties = undefined
    this.propertyNames = this.dependentRequired = this.dependentSchemas = undefined
    this.unevaluatedProperties = this.contentMediaType = this.contentEncoding = undefined
    this.contentSchema = undefined
    this.constraints = 0
    this.keys = 0
    return this
  }

  countConstraints(): number {
    let count = 0
    for (const key of CONSTRAINTS) if (this[key] !== undefined) count++
    return count
  }
}

/**
 * JSON Schema 2020-12 applicator, validation and content keywords beyond OpenAPI 3.0's (and `not`,
 * which 3.0 has too). They are rare, so they are read after the frequent keywords.
 */
const APPLICATORS = [
  'not',
  'if',
  'then',
  'else',
  'prefixItems',
  'contains',
  'minContains',
  'maxContains',
  'unevaluatedItems',
  'patternProperties',
  'propertyNames',
  'dependentRequired',
  'dependentSchemas',
  'unevaluatedProperties',
  'contentMediaType',
  'contentEncoding',
  'contentSchema',
] as const satisfies readonly (keyof SchemaFields)[]
type Applicator = (typeof APPLICATORS)[number]
const APPLICATOR_KEYS: ReadonlySet<string> = new Set(APPLICATORS)

const CONSTRAINTS = [
  'type',
  'properties',
  'required',
  'additionalProperties',
  'minProperties',
  'maxProperties',
  'items',
  'minItems',
  'maxItems',
  'uniqueItems',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'enum',
  ...APPLICATORS,
] as const satisfies readonly (keyof SchemaFields)[]

/**
 * Reads a raw schema's keywords, reporting unexpected ones (UNEXPECTED_PROPERTY) and collecting
 * `x-` extensions. In 3.1, `const` becomes a one-value enum, and `nullable` (not a 3.1 keyword)
 * is reported and dropped. The record is the pooled one for the current nesting level: it stays
 * valid while `parseFields` parses this schema, and is reused by the next schema at this level.
 */
export function readSchemaFields(ctx: OasContext, raw: RawObject): SchemaFields {
  const fields = (ctx.fieldsPool[ctx.fieldsDepth] ??= new SchemaFields()).reset()
  const known = knownKeys(ctx.dialect, 'schema')
  let constraints = 0
  let keys = 0
  for (const key in raw) {
    const value = raw[key]
    keys++
    // Cases run top to bottom until one matches: the most frequent keywords come first.
    switch (key) {
      case 'type':
        fields.type = value
        constraints++
        break
      case 'format':
        fields.format = value
        constraints++
        break
      case 'description':
        fields.description = value
        break
      case 'nullable':
        if (ctx.dialect === '3.0') fields.nullable = value
        else ctx.unexpected(key)
        break
      case 'properties':
        fields.properties = value
        constraints++
        break
      case 'enum':
        fields.enum = value
        constraints++
        break
      case 'required':
        fields.required = value
        constraints++
        break
      case 'example':
        fields.example = value
        break
      case 'title':
        fields.title = value
        break
      case 'items':
        fields.items = value
        constraints++
        break
      case 'default':
        fields.default = value
        break
      case 'allOf':
        fields.allOf = value
        break
      case 'oneOf':
        fields.oneOf = value
        break
      case 'anyOf':
        fields.anyOf = value
        break
      case 'additionalProperties':
        fields.additionalProperties = value
        constraints++
        break
      case 'readOnly':
        fields.readOnly = value
        break
      case 'deprecated':
        fields.deprecated = value
        break
      case 'minimum':
        fields.minimum = value
        constraints++
        break
      case 'maximum':
        fields.maximum = value
        constraints++
        break
      case 'maxLength':
        fields.maxLength = value
        constraints++
        break
      case 'minLength':
        fields.minLength = value
        constraints++
        break
      case 'pattern':
        fields.pattern = value
        constraints++
        break
      case 'minItems':
        fields.minItems = value
        constraints++
        break
      case 'maxItems':
        fields.maxItems = value
        constraints++
        break
      case 'uniqueItems':
        fields.uniqueItems = value
        constraints++
        break
      case 'writeOnly':
        fields.writeOnly = value
        break
      case 'discriminator':
        fields.discriminator = value
        break
      case 'minProperties':
        fields.minProperties = value
        constraints++
        break
      case 'maxProperties':
        fields.maxProperties = value
        constraints++
        break
      case 'exclusiveMinimum':
        fields.exclusiveMinimum = value
        constraints++
        break
      case 'exclusiveMaximum':
        fields.exclusiveMaximum = value
        constraints++
        break
      case 'multipleOf':
        fields.multipleOf = value
        constraints++
        break
      default:
        if (key.startsWith('x-')) (fields.extensions ??= {})[key] = value
        else if (!known.has(key)) ctx.unexpected(key)
        else if (key === 'examples') fields.examples = value
        else if (key === 'const') fields.const = value
        else if (APPLICATOR_KEYS.has(key)) {
          fields[key as Applicator] = value
          constraints++
        }
    }
  }
  if (fields.const !== undefined && fields.enum === undefined) {
    fields.enum = [fields.const]
    constraints++
  }
  fields.constraints = constraints
  fields.keys = keys
  return fields
}

/** The keywords of a schema without its annotations: what a wrapper adds to every member. */
export function bareOf(f: SchemaFields): SchemaFields {
  const bare = f.without(
    'title',
    'description',
    'default',
    'example',
    'examples',
    'deprecated',
    'readOnly',
    'writeOnly',
    'nullable',
    'discriminator',
  )
  bare.extensions = undefined
  return bare
}
