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
  /**
   * A `default` of the wrong type, dropped from `default` (INVALID_DEFAULT) and kept here so that
   * a diff still sees it change: it still says what the server assumes.
   */
  readonly invalidDefault?: unknown
  readonly example?: unknown
  /**
   * A 3.1 `const`, as written: the one value the schema accepts. Scalar schemas also carry it as
   * a one-value `enum`; it is kept apart so that a diff can tell a constant from an enum.
   */
  readonly const?: unknown
  /** A 3.1 `examples` list as written (its first entry is also `example`). */
  readonly examples?: readonly unknown[]
  /** `x-*` extensions, as written. */
  readonly extensions?: Readonly<Record<string, unknown>>
  /**
   * Validation keywords the node does not hold as its own, by name: those of another type
   * (`minItems` on a string), a number format the model does not represent, and on a schema
   * without a type all of them, which hold only for values of their type. Validators ignore the
   * first two; an `allOf` member without a type gives the rest to the type its siblings set.
   */
  readonly unapplied?: Readonly<Record<string, unknown>>
  /**
   * Written as an `allOf`: per member, in order, the component its `$ref` names, or null for a
   * member written inline (members with annotations only are left out).
   */
  readonly allOfRefs?: readonly (string | null)[]
}

/**
 * JSON Schema 2020-12 keywords that hold whatever the type: `not` and `if`/`then`/`else`. A lazy
 * `ref` carries none (the parser merges them into the target) and a `void` schema needs none.
 */
export type SchemaConditions = {
  /** Values that match this schema are rejected; several `not`s (from `allOf`) become one `anyOf`. */
  readonly not?: Schema
  /** One per `if` (`allOf` members can bring several); `then`/`else` without `if` do nothing. */
  readonly conditions?: readonly Conditional[]
}

export type Conditional = {
  readonly if: Schema
  readonly then?: Schema
  readonly else?: Schema
}

/** A link to documentation beyond the description (`externalDocs`). */
export type ExternalDocs = { readonly url: string; readonly description?: string }

export type Discriminator = {
  readonly propertyName: string
  /** Discriminator value → `$ref` of the member schema. */
  readonly mapping?: Readonly<Record<string, string>>
}

export type ObjectSchema = SchemaAnnotations &
  SchemaConditions & {
    readonly kind: 'object'
    readonly properties: Readonly<Record<string, Schema>>
    readonly required: readonly string[]
    /** Absent when the document says nothing; `false` closes the object; a schema types extra keys. */
    readonly additionalProperties?: Schema | boolean
    readonly minProperties?: number
    readonly maxProperties?: number
    /** Set on the base of an inheritance hierarchy (`allOf` + `discriminator`). */
    readonly discriminator?: Discriminator
    /** Regular expression → the schema of every property whose name it matches. */
    readonly patternProperties?: Readonly<Record<string, Schema>>
    /** The schema every property name (a string) must match. */
    readonly propertyNames?: Schema
    /** Property name → the properties that become required when it is present. */
    readonly dependentRequired?: Readonly<Record<string, readonly string[]>>
    /** Property name → a schema the whole object must also match when it is present. */
    readonly dependentSchemas?: Readonly<Record<string, Schema>>
    /** `false` rejects properties no other keyword evaluated; `true` is the same as absent. */
    readonly unevaluatedProperties?: Schema | false
  }

export type ArraySchema = SchemaAnnotations &
  SchemaConditions & {
    readonly kind: 'array'
    /** The items after `prefixItems` (every item when there is none). */
    readonly items: Schema
    /** The schemas of the first items, by position (a tuple). */
    readonly prefixItems?: readonly Schema[]
    readonly minItems?: number
    readonly maxItems?: number
    readonly uniqueItems?: boolean
    /** At least `minContains` (default 1), at most `maxContains` items match this schema. */
    readonly contains?: Schema
    readonly minContains?: number
    readonly maxContains?: number
    /** `false` rejects items no other keyword evaluated; `true` is the same as absent. */
    readonly unevaluatedItems?: Schema | false
  }

/** `oneOf` / `anyOf`, a 3.1 type array with several types, or a GraphQL union or interface. */
export type UnionSchema = SchemaAnnotations &
  SchemaConditions & {
    readonly kind: 'union'
    readonly mode: 'oneOf' | 'anyOf'
    readonly members: readonly Schema[]
    readonly discriminator?: Discriminator
  }

export type StringSchema = SchemaAnnotations &
  SchemaConditions & {
    readonly kind: 'string'
    readonly format?: string
    readonly enum?: readonly (string | null)[]
    readonly pattern?: string
    readonly minLength?: number
    readonly maxLength?: number
    /** The media type of the string's content (`image/png`, `application/json`). */
    readonly contentMediaType?: string
    /** How the content is encoded into the string (`base64`). */
    readonly contentEncoding?: string
    /** The schema of the decoded content. */
    readonly contentSchema?: Schema
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

export type IntegerSchema = SchemaAnnotations &
  SchemaConditions &
  NumericConstraints & { readonly kind: 'integer' }
export type NumberSchema = SchemaAnnotations &
  SchemaConditions &
  NumericConstraints & { readonly kind: 'number' }

export type BooleanSchema = SchemaAnnotations &
  SchemaConditions & {
    readonly kind: 'boolean'
    readonly enum?: readonly (boolean | null)[]
  }

/** Any value: a schema without a type, `{}`, or a 3.1 `true` schema. */
export type UnknownSchema = SchemaAnnotations & SchemaConditions & { readonly kind: 'unknown' }

/** No value at all: a 3.1 `false` schema. */
export type VoidSchema = SchemaAnnotations & { readonly kind: 'void' }

/** A lazy reference to `#/components/schemas/<refName>`; resolve it with `resolveRef`. */
export type RefSchema = SchemaAnnotations & {
  readonly kind: 'ref'
  readonly $ref: string
  readonly refName: string
}
