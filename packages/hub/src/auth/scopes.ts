import { SCOPES } from '@svc/hub-api'

/** PAT scopes (docs/api/authentication.md); the hub-api package lists them for `GET /v1/user`. */
export { SCOPES }

export type Scope = (typeof SCOPES)[number]

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value)
}

/** Parses `a,b c` into scopes; answers the unknown names when there are any. */
export function parseScopes(
  text: string,
): { ok: true; scopes: Scope[] } | { ok: false; unknown: string[] } {
  const names = text.split(/[\s,]+/).filter(Boolean)
  const unknown = names.filter((n) => !isScope(n))
  if (unknown.length > 0) return { ok: false, unknown }
  return { ok: true, scopes: [...new Set(names as Scope[])] }
}
