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

/**
 * Where the web app puts the signed-in user when it calls the /v1 API in-process
 * (web/api-client.ts). It is a key of Hono's `env`, which a request from the network never sets.
 */
export const IN_PROCESS_CALLER = Symbol('svc.inProcessCaller')

export type InProcessEnv = { readonly [IN_PROCESS_CALLER]?: Caller | null }

/** The caller the web app passed in (null: signed out), or undefined for a network request. */
export function inProcessCaller(c: { env: unknown }): Caller | null | undefined {
  const env = c.env as InProcessEnv | undefined
  return env && IN_PROCESS_CALLER in env ? (env[IN_PROCESS_CALLER] ?? null) : undefined
}
