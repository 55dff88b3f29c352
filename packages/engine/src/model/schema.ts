/**
 * The version-agnostic schema model. Every node is readonly and tagged with `kind`; a reference
 * to a named component stays a lazy `ref` node, so recursive schemas are plain data.
 */
export type Schema =
  | ObjectSchema
  | ArraySchema
  | UnionSchema
  | StringSchema
  | IntegerSchema
  | NumberSchema
  | BooleanSchema
  | UnknownSchema
  | VoidSchema
  | RefSchema

export type SchemaKind = Schema['kind']

/** Annotations every schema node can carry. `default` and `example` are present only when valid. */
export type SchemaAnnotations = {
  readonly nullable: boolean
  readonly title?: string
  readonly description?: string
  readonly deprecated?: boolean
  readonly readOnly?: boolean
  readonly writeOnly?: boolean
  readonly default?: unknown
  readonly example?: unknown
  /** A 3.1 `examples` list as written (its first entry is also `example`). */
  readonly examples?: readonly unknown[]
  /** `x-*` extensions, as written. */
  readonly extensions?: Readonly<Record<string, unknown>>
}

/** A link to documentation beyond the description (`externalDocs`). */
export type ExternalDocs = { readonly url: string; readonly description?: string }

export type Discriminator = {
  readonly propertyName: string
  /** Discriminator value → `$ref` of the member schema. */
  readonly mapping?: Readonly<Record<string, string>>
}

export type ObjectSchema = SchemaAnnotations & {
  readonly kind: 'object'
  readonly properties: Readonly<Record<string, Schema>>
  readonly required: readonly string[]
  /** Absent when the document says nothing; `false` closes the object; a schema types extra keys. */
  readonly additionalProperties?: Schema | boolean
  readonly minProperties?: number
  readonly maxProperties?: number
  /** Set on the base of an inheritance hierarchy (`allOf` + `discriminator`). */
  readonly discriminator?: Discriminator
}

export type ArraySchema = SchemaAnnotations & {
  readonly kind: 'array'
  readonly items: Schema
  readonly minItems?: number
  readonly maxItems?: number
  readonly uniqueItems?: boolean
}

/** `oneOf` / `anyOf`, a 3.1 type array with several types, or a GraphQL union or interface. */
export type UnionSchema = SchemaAnnotations & {
  readonly kind: 'union'
  readonly mode: 'oneOf' | 'anyOf'
  readonly members: readonly Schema[]
  readonly discriminator?: Discriminator
}

export type StringSchema = SchemaAnnotations & {
  readonly kind: 'string'
  readonly format?: string
  readonly enum?: readonly (string | null)[]
  readonly pattern?: string
  readonly minLength?: number
  readonly maxLength?: number
}

export type NumericConstraints = {
  readonly format?: string
  readonly enum?: readonly (number | null)[]
  readonly minimum?: number
  readonly maximum?: number
  readonly exclusiveMinimum?: number
  readonly exclusiveMaximum?: number
  readonly multipleOf?: number
}

export type IntegerSchema = SchemaAnnotations & NumericConstraints & { readonly kind: 'integer' }
export type NumberSchema = SchemaAnnotations & NumericConstraints & { readonly kind: 'number' }

export type BooleanSchema = SchemaAnnotations & {
  readonly kind: 'boolean'
  readonly enum?: readonly (boolean | null)[]
}

/** Any value: a schema without a type, `{}`, or a 3.1 `true` schema. */
export type UnknownSchema = SchemaAnnotations & { readonly kind: 'unknown' }

/** No value at all: a 3.1 `false` schema. */
export type VoidSchema = SchemaAnnotations & { readonly kind: 'void' }

/** A lazy reference to `#/components/schemas/<refName>`; resolve it with `resolveRef`. */
export type RefSchema = SchemaAnnotations & {
  readonly kind: 'ref'
  readonly $ref: string
  readonly refName: string
}
