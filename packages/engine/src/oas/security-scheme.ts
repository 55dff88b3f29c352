import type { OAuthFlow, SecurityScheme } from '../model/security-scheme.js'
import { describeValue, isObject, type OasContext, type RawObject } from './context.js'

const FLOWS = ['implicit', 'password', 'clientCredentials', 'authorizationCode'] as const
const API_KEY_LOCATIONS: ReadonlySet<string> = new Set(['query', 'header', 'cookie'])

/** A security scheme under `components.securitySchemes`: http, apiKey, oauth2 or openIdConnect. */
export function parseSecurityScheme(ctx: OasContext, value: unknown): SecurityScheme {
  if (!isObject(value))
    return ctx.fail(`Expected a security scheme object, got ${describeValue(value)}`)
  ctx.checkKeys(value, 'securityScheme')
  const description =
    typeof value.description === 'string' ? { description: value.description } : {}
  switch (value.type) {
    case 'http': {
      const scheme = text(ctx, value, 'scheme')
      const bearer =
        typeof value.bearerFormat === 'string' ? { bearerFormat: value.bearerFormat } : {}
      return Object.freeze({ type: 'http', scheme, ...bearer, ...description })
    }
    case 'apiKey': {
      const name = text(ctx, value, 'name')
      const where = value.in
      if (typeof where !== 'string' || !API_KEY_LOCATIONS.has(where)) {
        return ctx.fail(
          `An apiKey scheme needs "in" to be query, header or cookie, got ${describeValue(where)}`,
        )
      }
      return Object.freeze({
        type: 'apiKey',
        name,
        in: where as 'query' | 'header' | 'cookie',
        ...description,
      })
    }
    case 'oauth2':
      return Object.freeze({ type: 'oauth2', flows: parseFlows(ctx, value.flows), ...description })
    case 'openIdConnect':
      return Object.freeze({
        type: 'openIdConnect',
        openIdConnectUrl: text(ctx, value, 'openIdConnectUrl'),
        ...description,
      })
    default:
      return ctx.fail(
        `Unknown security scheme type: ${describeValue(value.type)}; expected http, apiKey, oauth2 or openIdConnect`,
      )
  }
}

function text(ctx: OasContext, value: RawObject, key: string): string {
  const found = value[key]
  if (typeof found !== 'string' || found === '') {
    return ctx.fail(`A ${String(value.type)} scheme needs "${key}", got ${describeValue(found)}`)
  }
  return found
}

function parseFlows(
  ctx: OasContext,
  value: unknown,
): Partial<Record<(typeof FLOWS)[number], OAuthFlow>> {
  if (!isObject(value))
    return ctx.fail(`An oauth2 scheme needs "flows", got ${describeValue(value)}`)
  ctx.push('flows')
  ctx.checkKeys(value, 'oauthFlows')
  const flows: Partial<Record<(typeof FLOWS)[number], OAuthFlow>> = {}
  for (const name of FLOWS) {
    const flow = value[name]
    if (flow === undefined) continue
    ctx.push(name)
    if (!isObject(flow)) ctx.fail(`Expected an OAuth flow object, got ${describeValue(flow)}`)
    ctx.checkKeys(flow, 'oauthFlow')
    const scopes = flow.scopes ?? {}
    if (!isObject(scopes))
      ctx.fail(`"scopes" must map scope names to descriptions, got ${describeValue(scopes)}`)
    const parsed: { -readonly [K in keyof OAuthFlow]: OAuthFlow[K] } = {
      scopes: Object.freeze(
        Object.fromEntries(Object.entries(scopes).map(([k, v]) => [k, String(v)])),
      ),
    }
    for (const key of ['authorizationUrl', 'tokenUrl', 'refreshUrl'] as const) {
      if (typeof flow[key] === 'string') parsed[key] = flow[key]
    }
    flows[name] = Object.freeze(parsed)
    ctx.pop()
  }
  ctx.pop()
  return Object.freeze(flows)
}
