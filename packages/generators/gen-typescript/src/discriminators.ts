import type { ApiModel, Discriminator, ObjectSchema, Schema } from '@svc/engine'

/** The values a discriminator property takes on one member schema, as the document gives them. */
export type DiscriminatorValues = { readonly propertyName: string; readonly values: string[] }

/**
 * The values a union's discriminator gives the member schema `refName`: the mapping keys that
 * point to it, else its schema name (the implicit mapping of the OpenAPI specification).
 */
export function memberValues(discriminator: Discriminator, refName: string): string[] {
  const mapped = Object.entries(discriminator.mapping ?? {})
    .filter(([, target]) => mappedName(target) === refName)
    .map(([value]) => value)
  return mapped.length > 0 ? mapped : [refName]
}

/**
 * Whether a value of the component schema `refName` can carry a discriminator property: an
 * object, or a union or untyped schema that may be one. A discriminator that maps a value to an
 * array or a scalar (GitHub's `content-directory`, a list) cannot pick it out by a property, so
 * that member is left as it is rather than intersected with an object it can never be.
 */
export function carriesProperties(model: ApiModel, refName: string): boolean {
  const seen = new Set<string>()
  let schema = model.components.schemas[refName]
  while (schema?.kind === 'ref' && !seen.has(schema.refName)) {
    seen.add(schema.refName)
    schema = model.components.schemas[schema.refName]
  }
  return schema === undefined || ['object', 'union', 'unknown', 'ref'].includes(schema.kind)
}

function mappedName(target: string): string {
  // A mapping value is a `$ref` (a JSON pointer in a URI) or a bare schema name.
  const slash = target.lastIndexOf('/')
  if (slash < 0) return target
  const segment = target
    .slice(slash + 1)
    .replace(/~1/g, '/')
    .replace(/~0/g, '~')
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

const inheritance = new WeakMap<ApiModel, Map<string, DiscriminatorValues | undefined>>()

/**
 * The discriminator value a component schema carries as a member of an `allOf` hierarchy: the
 * parser merges `allOf`, so a child holds its base's discriminator and a superset of its
 * properties. A schema is a child when another schema with the same discriminator has a strict
 * subset of its properties; its value is the mapping keys that point to it, else its name. A child
 * that adds no property cannot be told from its base and keeps the base's type.
 */
function inheritedValues(model: ApiModel, refName: string): DiscriminatorValues | undefined {
  let cache = inheritance.get(model)
  if (!cache) inheritance.set(model, (cache = new Map()))
  if (!cache.has(refName)) cache.set(refName, findInherited(model, refName))
  return cache.get(refName)
}

function findInherited(model: ApiModel, refName: string): DiscriminatorValues | undefined {
  const schemas = model.components.schemas
  const own = schemas[refName]
  if (own?.kind !== 'object' || !own.discriminator) return undefined
  const { propertyName, mapping } = own.discriminator
  const mapped = Object.entries(mapping ?? {})
    .filter(([, target]) => mappedName(target) === refName)
    .map(([value]) => value)
  if (mapped.length > 0) return { propertyName, values: mapped }
  const names = Object.keys(own.properties)
  const isChild = Object.entries(schemas).some(
    ([name, other]) =>
      name !== refName &&
      other.kind === 'object' &&
      sameDiscriminator(other.discriminator, own.discriminator!) &&
      Object.keys(other.properties).length < names.length &&
      Object.keys(other.properties).every((key) => Object.hasOwn(own.properties, key)),
  )
  return isChild ? { propertyName, values: [refName] } : undefined
}

function sameDiscriminator(left: Discriminator | undefined, right: Discriminator): boolean {
  return (
    left !== undefined &&
    left.propertyName === right.propertyName &&
    JSON.stringify(left.mapping ?? {}) === JSON.stringify(right.mapping ?? {})
  )
}

/** The object schema with its discriminator property narrowed to the given values (required). */
function withDiscriminatorValues(
  schema: ObjectSchema,
  { propertyName, values }: DiscriminatorValues,
): ObjectSchema {
  const { title, description, deprecated, readOnly, writeOnly, extensions } =
    schema.properties[propertyName] ?? {}
  // What the document says of the property stays; only its values narrow.
  const notes = { title, description, deprecated, readOnly, writeOnly, extensions }
  const annotations = Object.fromEntries(
    Object.entries(notes).filter(([, value]) => value !== undefined),
  )
  const property: Schema = {
    ...annotations,
    kind: 'string',
    nullable: false,
    enum: values,
    ...(values.length === 1 ? { const: values[0] } : {}),
  }
  return {
    ...schema,
    properties: { ...schema.properties, [propertyName]: property },
    required: schema.required.includes(propertyName)
      ? schema.required
      : [...schema.required, propertyName],
  }
}

/** A component schema as its generators print it: a child of a hierarchy with its own value. */
export function schemaOfModel(model: ApiModel, refName: string, schema: Schema): Schema {
  const inherited = schema.kind === 'object' ? inheritedValues(model, refName) : undefined
  return inherited && schema.kind === 'object' ? withDiscriminatorValues(schema, inherited) : schema
}
