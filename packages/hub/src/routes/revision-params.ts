import { z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { readableApi } from '../apis/api-access.js'
import { findRevision } from '../apis/revision-address.js'
import type { HubEnv } from '../http/env.js'
import { AccountParam, SlugParam } from '../http/router.js'

export const ApiParams = z.object({ owner: AccountParam, slug: SlugParam })

/** `latest`, a revision id, or a sequence number (`5`: the API's fifth revision). */
export const RevisionParam = z
  .string()
  .regex(/^(?:latest|rev_[a-z0-9]{1,64}|[1-9][0-9]{0,8})$/, {
    error: 'must be a revision id (`rev_…`), a sequence number or `latest`',
  })
  .openapi({
    description: 'A revision id (`rev_…`), its sequence number (`5`), or `latest`',
    example: 'latest',
  })

export const RevisionParams = ApiParams.extend({ id: RevisionParam })

/** The API and the revision of the route's `{owner}`, `{slug}` and `{id}`, if the caller may read them. */
export async function readableRevision(c: Context<HubEnv>) {
  const { store } = c.get('hub')
  const api = await readableApi(
    store,
    c.get('caller'),
    c.req.param('owner') ?? '',
    c.req.param('slug') ?? '',
  )
  return { api, revision: await findRevision(store, api, c.req.param('id') ?? '') }
}
