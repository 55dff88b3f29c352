import type { ArraySchema, NumericConstraints, StringSchema } from '@svc/engine'

/** The zod 4 schema of each string format zod checks; other formats stay plain strings. */
const FORMATS: Readonly<Record<string, string>> = {
  email: 'z.email()',
  uuid: 'z.uuid()',
  uri: 'z.url()',
  url: 'z.url()',
  // RFC 3339 date-times carry an offset (`Z` or `+02:00`): zod accepts only `Z` unless told.
  'date-time': 'z.iso.datetime({ offset: true })',
  date: 'z.iso.date()',
  ipv4: 'z.ipv4()',
  ipv6: 'z.ipv6()',
}

/** A string schema with its format, length and pattern checks. */
export function printString(schema: StringSchema): string {
  const base = (schema.format !== undefined && FORMATS[schema.format]) || 'z.string()'
  let checks = ''
  if (schema.minLength !== undefined) checks += `.min(${schema.minLength})`
  if (schema.maxLength !== undefined) checks += `.max(${schema.maxLength})`
  const pattern = schema.pattern === undefined ? undefined : regExpOf(schema.pattern)
  if (pattern) checks += `.regex(${pattern})`
  return base + checks
}

/**
 * A pattern as a `RegExp` expression. Patterns are ECMA-262 regular expressions, read with the
 * `u` flag as JSON Schema says; many documents write escapes only the plain syntax accepts, so
 * those are read without it. A pattern JavaScript cannot compile is not checked.
 */
export function regExpOf(pattern: string): string | undefined {
  for (const flags of ['u', '']) {
    try {
      new RegExp(pattern, flags)
      return `new RegExp(${JSON.stringify(pattern)}${flags ? `, ${JSON.stringify(flags)}` : ''})`
    } catch {
      continue
    }
  }
  return undefined
}

/** The bounds and `multipleOf` of a number or integer schema. */
export function printNumberChecks(schema: NumericConstraints): string {
  let checks = ''
  if (schema.minimum !== undefined) checks += `.min(${schema.minimum})`
  if (schema.exclusiveMinimum !== undefined) checks += `.gt(${schema.exclusiveMinimum})`
  if (schema.maximum !== undefined) checks += `.max(${schema.maximum})`
  if (schema.exclusiveMaximum !== undefined) checks += `.lt(${schema.exclusiveMaximum})`
  if (schema.multipleOf !== undefined) checks += `.multipleOf(${schema.multipleOf})`
  return checks
}

/** The length bounds of an array schema and, as a refinement, `uniqueItems`. */
export function printArrayChecks(schema: ArraySchema): string {
  let checks = ''
  if (schema.minItems !== undefined) checks += `.min(${schema.minItems})`
  if (schema.maxItems !== undefined) checks += `.max(${schema.maxItems})`
  // Items are compared as JSON, which is how they arrived; zod has no built-in uniqueness check.
  if (schema.uniqueItems)
    checks +=
      '.refine((items) => new Set(items.map((item) => JSON.stringify(item))).size === items.length, { message: "Items must be unique" })'
  return checks
}
