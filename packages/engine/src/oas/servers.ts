import type { Server } from '../model/operation.js'
import { describeValue, isObject, type OasContext } from './context.js'

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

/** A `servers` list; `segment` is pushed on the trail when the list is written at this level. */
export function parseServers(ctx: OasContext, value: unknown, segment?: string): readonly Server[] {
  if (!Array.isArray(value))
    return ctx.fail(`"servers" must be an array, got ${describeValue(value)}`)
  if (segment) ctx.push(segment)
  const servers = value.map((raw, index) => {
    ctx.push(String(index))
    if (!isObject(raw) || typeof raw.url !== 'string')
      ctx.fail(`A server needs a "url", got ${describeValue(raw)}`)
    ctx.checkKeys(raw, 'server')
    const server: Mutable<Server> = { url: raw.url }
    if (typeof raw.description === 'string') server.description = raw.description
    if (isObject(raw.variables)) {
      const variables: [string, NonNullable<Server['variables']>[string]][] = []
      ctx.push('variables')
      for (const name in raw.variables) {
        const variable = raw.variables[name]
        ctx.push(name)
        if (!isObject(variable))
          ctx.fail(`Expected a server variable object, got ${describeValue(variable)}`)
        ctx.checkKeys(variable, 'serverVariable')
        variables.push([
          name,
          Object.freeze({
            default: String(variable.default ?? ''),
            ...(Array.isArray(variable.enum)
              ? { enum: Object.freeze(variable.enum.map(String)) }
              : {}),
            ...(typeof variable.description === 'string'
              ? { description: variable.description }
              : {}),
          }),
        ])
        ctx.pop()
      }
      ctx.pop()
      server.variables = Object.freeze(Object.fromEntries(variables))
    }
    ctx.pop()
    return Object.freeze(server)
  })
  if (segment) ctx.pop()
  return Object.freeze(servers)
}
