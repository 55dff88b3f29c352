import { createRoute } from '@hono/zod-openapi'
import { UserSchema } from '@svc/hub-api'
import { BEARER, createRouter, errorResponses } from '../http/router.js'
import { needs, requireCaller } from '../middleware/authenticate.js'

export const user = createRouter()

user.openapi(
  createRoute({
    method: 'get',
    path: '/user',
    tags: ['accounts'],
    summary: 'The caller: the user the token belongs to, its organisations and the token',
    security: BEARER,
    middleware: [needs()] as const,
    responses: {
      200: { description: 'The caller', content: { 'application/json': { schema: UserSchema } } },
      ...errorResponses(401),
    },
  }),
  async (c) => {
    const caller = requireCaller(c)
    const organizations = await c.get('hub').store.accounts.memberships(caller.userId)
    return c.json(
      {
        id: caller.userId,
        handle: caller.handle,
        kind: 'user' as const,
        organizations,
        token: { id: caller.tokenId, scopes: [...caller.scopes], expiresAt: caller.expiresAt },
      },
      200,
    )
  },
)
