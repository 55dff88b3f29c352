import { UserSchema, type User } from '@svc/hub-api'
import { hubRequest } from './hub-client.js'

/** Who the token belongs to; a HubError when the hub refuses it, cannot be reached or answers no user. */
export async function currentUser(
  origin: string,
  token: string,
  timeoutMs = 15_000,
): Promise<User> {
  const { body } = await hubRequest(origin, token, {
    method: 'GET',
    path: '/v1/user',
    answer: UserSchema,
    timeoutMs,
  })
  return body
}
