import type { Scope } from './scopes.js'

/** Who is calling: the user a valid PAT belongs to, and what the PAT allows. */
export type Caller = {
  readonly userId: string
  readonly handle: string
  readonly tokenId: string
  readonly scopes: readonly Scope[]
  readonly expiresAt: string | null
}

/** An organisation calling with one of its API keys (`svc_key_…`), where a route takes keys. */
export type KeyCaller = {
  readonly keyId: string
  readonly orgId: string
  readonly orgHandle: string
}
