import { ApiListSchema, type Api } from '@svc/hub-api'
import type { CommandIO } from '../../command-io.js'
import {
  allPages,
  checkOwner,
  hubCredentials,
  type HubOptions,
  type SubcommandRecipe,
} from './common.js'

export type ApiListOptions = HubOptions & { readonly owner?: string | undefined }

export type ApiListResult = {
  readonly type: 'apis'
  readonly origin: string
  /** Whether a token was sent: without one, only public APIs are listed. */
  readonly authenticated: boolean
  readonly apis: readonly Api[]
}

const RECIPE: SubcommandRecipe = {
  command: 'api list',
  usage: 'svc api list [--owner <account>] [--origin <url>] [--token <pat>] [--json]',
  example: 'svc api list --owner acme',
}

/**
 * `svc api list`: `GET /v1/apis`, every page: the public APIs and the private ones of the
 * accounts the token's user can read, oldest first. A token is sent when there is one.
 */
export async function apiList(options: ApiListOptions, io: CommandIO): Promise<ApiListResult> {
  checkOwner(options.owner, RECIPE)
  const credentials = hubCredentials(options, io, RECIPE, false)
  const apis = await allPages(
    credentials,
    'api list',
    options.owner ?? credentials.origin,
    { path: '/v1/apis', query: { owner: options.owner }, answer: ApiListSchema },
    (page) => page.apis,
  )
  return {
    type: 'apis',
    origin: credentials.origin,
    authenticated: credentials.token !== undefined,
    apis,
  }
}
