import { PushResultSchema } from '@svc/hub-api'
import type { CommandIO } from '../../command-io.js'
import type { FailOn } from '../diff/index.js'
import {
  apiPath,
  formatApiName,
  hubCall,
  hubCredentials,
  parseApiName,
  type HubOptions,
  type SubcommandRecipe,
} from './common.js'
import { withChanges, type ApiRevisionResult } from './push.js'

export type ApiRefetchOptions = HubOptions & {
  readonly api?: string | undefined
  readonly failOn?: FailOn | undefined
}

const RECIPE: SubcommandRecipe = {
  command: 'api refetch',
  usage:
    'svc api refetch <owner/slug> [--fail-on breaking|warning] [--origin <url>] [--token <pat>] [--json]',
  example: 'svc api refetch acme/payments',
}

/** `svc api refetch <owner/slug>`: the hub fetches the API's sourceUrl and pushes what it serves. */
export async function apiRefetch(
  options: ApiRefetchOptions,
  io: CommandIO,
): Promise<ApiRevisionResult> {
  const name = parseApiName(options.api, RECIPE)
  const credentials = hubCredentials(options, io, RECIPE, true)
  const { body } = await hubCall(credentials, 'api refetch', formatApiName(name), {
    method: 'POST',
    path: apiPath(name, '/refetch'),
    answer: PushResultSchema,
  })
  return withChanges(credentials, 'api refetch', name, body, options.failOn)
}
