import { createRoute, z } from '@hono/zod-openapi'
import { AccountUsageSchema } from '@svc/hub-api'
import { accountOrThrow, requireAccess } from '../auth/access.js'
import { AccountParam, BEARER, createRouter, errorResponses } from '../http/router.js'
import { needs, requireCaller } from '../middleware/authenticate.js'
import { accountUsage } from '../quotas/usage.js'

/** An account's storage against its quotas (docs/api/usage.md). */
export const usage = createRouter()

usage.openapi(
  createRoute({
    method: 'get',
    path: '/{account}/usage',
    tags: ['accounts'],
    summary: 'What an account stores against each of its storage quotas',
    description:
      'Readable by the user it is, or by any member of the organisation. Any token scope will do.',
    security: BEARER,
    middleware: [needs()] as const,
    request: { params: z.object({ account: AccountParam }) },
    responses: {
      200: {
        description: "The account's usage and limits",
        content: { 'application/json': { schema: AccountUsageSchema } },
      },
      ...errorResponses(401, 403, 404, 422),
    },
  }),
  async (c) => {
    const caller = requireCaller(c)
    const { store, config } = c.get('hub')
    const account = await accountOrThrow(store, c.req.valid('param').account)
    await requireAccess(store, caller, account, 'read', 'the storage usage')
    return c.json(await accountUsage(store, account, config.quotas.storage), 200)
  },
)
