import type { z } from 'zod'
import { StageFailure } from '../../errors.js'
import { hubAdvice } from '../../hub/advice.js'
import { hubRequest } from '../../hub/hub-client.js'
import type { Authenticated } from '../../hub/require-token.js'
import { formatDestination, type Destination } from './destination.js'

/**
 * Requests to one hub project (`/v1/projects/<account>/<slug><path>`), parsed with `answer`; any
 * failure is a StageFailure at stage `push` whose reason says what to do about it.
 */
export function projectRequest(credentials: Authenticated, destination: Destination) {
  const target = formatDestination(destination)
  return <T>(
    method: 'GET' | 'PUT',
    path: string,
    answer: z.ZodType<T>,
    body: { readonly json?: unknown; readonly form?: FormData } = {},
  ) =>
    hubRequest(credentials.origin, credentials.token, {
      method,
      path: `/v1/projects/${destination.account}/${destination.slug}${path}`,
      answer,
      ...body,
    }).catch((error: unknown) => {
      throw new StageFailure('push', hubAdvice('push', error, { ...credentials, target }))
    })
}
