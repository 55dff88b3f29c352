import { OAS_ISSUES } from '../../issues/index.js'
import { isObject, type OasContext } from '../context.js'
import type { SchemaType } from './parse-schema.js'
import type { SchemaFields } from './schema-fields.js'

/** String formats that mark an untyped schema as a string. */
const STRING_FORMATS: ReadonlySet<string> = new Set([
  'date',
  'date-time',
  'time',
  'duration',
  'binary',
  'byte',
  'password',
  'email',
  'idn-email',
  'hostname',
  'idn-hostname',
  'ipv4',
  'ipv6',
  'uri',
  'uri-reference',
  'iri',
  'iri-reference',
  'uri-template',
  'uuid',
  'json-pointer',
  'relative-json-pointer',
  'regex',
])

/**
 * The type of a schema that declares none, inferred as object (`properties`, and in 3.1 the other
 * object keywords), array (`items`, `prefixItems`),
 * boolean (a boolean default or example) or string (a string default or example, a string-only
 * enum, a string format), in that order, each with its MISSING_*_TYPE issue. Undefined when
 * nothing suggests a type: the schema stays unknown.
 */
export function inferType(ctx: OasContext, raw: SchemaFields): SchemaType | undefined {
  if (isObject(raw.properties) || (ctx.dialect === '3.1' && hasObjectKeyword(raw))) {
    if (ctx.dialect === '3.0') {
      ctx.report(
        OAS_ISSUES.missingObjectType,
        'Schema has "properties" but no type; treated as type "object".',
      )
    }
    return 'object'
  }
  const arrayKeyword = isObject(raw.items)
    ? 'items'
    : Array.isArray(raw.prefixItems)
      ? 'prefixItems'
      : undefined
  if (arrayKeyword) {
    ctx.report(
      OAS_ISSUES.missingArrayType,
      `Schema has "${arrayKeyword}" but no type; treated as type "array".`,
    )
    return 'array'
  }
  if (typeof raw.default === 'boolean' || typeof raw.example === 'boolean') {
    const source = typeof raw.default === 'boolean' ? 'default' : 'example'
    ctx.report(
      OAS_ISSUES.missingBooleanType,
      `Schema has a boolean ${source} but no type; treated as type "boolean".`,
    )
    return 'boolean'
  }
  const reason = stringEvidence(raw)
  if (reason) {
    ctx.report(
      OAS_ISSUES.missingStringType,
      `Schema has ${reason} but no type; treated as type "string".`,
    )
    return 'string'
  }
  return undefined
}

/**
 * 3.1 schemas often leave out the type where only objects make sense: `if: { required: [a] }`,
 * `not: { required: [b] }`, a map of `patternProperties`. They are read as objects, silently, as
 * `properties` is.
 */
function hasObjectKeyword(raw: SchemaFields): boolean {
  return (
    Array.isArray(raw.required) ||
    isObject(raw.patternProperties) ||
    raw.propertyNames !== undefined ||
    isObject(raw.dependentRequired) ||
    isObject(raw.dependentSchemas) ||
    raw.unevaluatedProperties !== undefined
  )
}

function stringEvidence(raw: SchemaFields): string | undefined {
  if (typeof raw.default === 'string') return 'a string default'
  if (typeof raw.example === 'string') return 'a string example'
  if (
    Array.isArray(raw.enum) &&
    raw.enum.length > 0 &&
    raw.enum.every((value) => typeof value === 'string')
  ) {
    return 'a string-only enum'
  }
  if (typeof raw.format === 'string' && STRING_FORMATS.has(raw.format))
    return `the string format "${raw.format}"`
  return undefined
}
