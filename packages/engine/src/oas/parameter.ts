import type { Parameter, ParameterLocation } from '../model/operation.js'
import { describeValue, type OasContext } from './context.js'
import { expectObject, parseParameterFields } from './content.js'

const LOCATIONS: ReadonlySet<string> = new Set(['path', 'query', 'header', 'cookie'])

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

/** A parameter object (inline in an operation, or under `components.parameters`). */
export function parseParameter(ctx: OasContext, value: unknown): Parameter {
  const raw = expectObject(ctx, value, 'parameter')
  if (typeof raw.name !== 'string' || raw.name === '')
    return ctx.fail(`Parameter needs a "name", got ${describeValue(raw.name)}`)
  if (typeof raw.in !== 'string' || !LOCATIONS.has(raw.in)) {
    return ctx.fail(
      `Parameter "${raw.name}" has "in" ${describeValue(raw.in)}; expected path, query, header or cookie`,
    )
  }
  const location = raw.in as ParameterLocation
  const fields = parseParameterFields(ctx, raw, 'parameter', location === 'path')
  const node: Mutable<Parameter> = { kind: 'parameter', name: raw.name, in: location, ...fields }
  return Object.freeze(node)
}
