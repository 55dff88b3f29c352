import { hubRequest } from './hub-client.js'

/** The caller as `GET /v1/user` describes it. */
export type HubUser = { readonly handle: string; readonly [field: string]: unknown }

/** Who the token belongs to; a HubError when the hub refuses it or cannot be reached. */
export async function currentUser(origin: string, token: string): Promise<HubUser> {
  const { body } = await hubRequest<HubUser>(origin, token, {
    method: 'GET',
    path: '/v1/user',
    timeoutMs: 15_000,
  })
  if (typeof body?.handle !== 'string') throw new Error(`GET ${origin}/v1/user gave no handle`)
  return body
}
