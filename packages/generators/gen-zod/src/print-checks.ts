import type { ArraySchema, NumericConstraints, StringSchema } from '@svc/engine'
import { atom, call, chain, object, withCall, z, type Expression } from './expression.js'

/** The zod 4 schema of each string format zod checks; other formats stay plain strings. */
const FORMATS: Readonly<Record<string, () => Expression>> = {
  email: () => z('email'),
  uuid: () => z('uuid'),
  uri: () => z('url'),
  url: () => z('url'),
  // RFC 3339 date-times carry an offset (`Z` or `+02:00`): zod accepts only `Z` unless told.
  'date-time': () =>
    chain('z.iso', [{ name: '.datetime', args: [object([['offset', atom('true')]])] }]),
  date: () => chain('z.iso', [{ name: '.date', args: [] }]),
  ipv4: () => z('ipv4'),
  ipv6: () => z('ipv6'),
}

/** A string schema with its format, length and pattern checks. */
export function printString(schema: StringSchema): Expression {
  const format = schema.format === undefined ? undefined : FORMATS[schema.format]
  let expression = format ? format() : z('string')
  if (schema.minLength !== undefined)
    expression = withCall(expression, 'min', number(schema.minLength))
  if (schema.maxLength !== undefined)
    expression = withCall(expression, 'max', number(schema.maxLength))
  const pattern = schema.pattern === undefined ? undefined : regExpOf(schema.pattern)
  if (pattern) expression = withCall(expression, 'regex', pattern)
  return expression
}

function number(value: number): Expression {
  return atom(String(value))
}

/**
 * A pattern as a `RegExp` expression. Patterns are ECMA-262 regular expressions, read with the
 * `u` flag as JSON Schema says; many documents write escapes only the plain syntax accepts, so
 * those are read without it. A pattern JavaScript cannot compile is not checked.
 */
export function regExpOf(pattern: string): Expression | undefined {
  for (const flags of ['u', '']) {
    try {
      new RegExp(pattern, flags)
      const args = [atom(JSON.stringify(pattern)), ...(flags ? [atom(JSON.stringify(flags))] : [])]
      return call('new RegExp', ...args)
    } catch {
      continue
    }
  }
  return undefined
}

/** A number or integer schema with its bounds and `multipleOf`. */
export function withNumberChecks(base: Expression, schema: NumericConstraints): Expression {
  let expression = base
  const checks = [
    ['min', schema.minimum],
    ['gt', schema.exclusiveMinimum],
    ['max', schema.maximum],
    ['lt', schema.exclusiveMaximum],
    ['multipleOf', schema.multipleOf],
  ] as const
  for (const [name, value] of checks)
    if (value !== undefined) expression = withCall(expression, name, number(value))
  return expression
}

/** An array schema with its length bounds and, as a refinement, `uniqueItems`. */
export function withArrayChecks(base: Expression, schema: ArraySchema): Expression {
  let expression = base
  if (schema.minItems !== undefined)
    expression = withCall(expression, 'min', number(schema.minItems))
  if (schema.maxItems !== undefined)
    expression = withCall(expression, 'max', number(schema.maxItems))
  // Items are compared as JSON, which is how they arrived; zod has no built-in uniqueness check.
  if (schema.uniqueItems)
    expression = withCall(
      expression,
      'refine',
      atom(
        '(items) => new Set(items.map((item) => JSON.stringify(item))).size === items.length',
        false,
      ),
      object([['message', atom('"Items must be unique"')]]),
    )
  return expression
}
