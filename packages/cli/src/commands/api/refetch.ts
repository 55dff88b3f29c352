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
import { loadWaivers } from '../../waivers/waiver-file.js'
import { noteRevision, withChanges, type ApiRevisionResult } from './push.js'

export type ApiRefetchOptions = HubOptions & {
  readonly api?: string | undefined
  readonly failOn?: FailOn | undefined
  /** `--waivers <file>`; without it `svc-waivers.yaml` is looked for. */
  readonly waivers?: string | undefined
}

const RECIPE: SubcommandRecipe = {
  command: 'api refetch',
  usage:
    'svc api refetch <owner/slug> [--fail-on breaking|warning] [--waivers <file>] [--origin <url>] [--token <pat>] [--format text|json|markdown|github|junit]',
  example: 'svc api refetch acme/payments',
}

/** `svc api refetch <owner/slug>`: the hub fetches the API's sourceUrl and pushes what it serves. */
export async function apiRefetch(
  options: ApiRefetchOptions,
  io: CommandIO,
): Promise<ApiRevisionResult> {
  const name = parseApiName(options.api, RECIPE)
  const waivers = await loadWaivers(options.waivers, io.cwd)
  const credentials = hubCredentials(options, io, RECIPE, true)
  const { body } = await hubCall(credentials, 'api refetch', formatApiName(name), {
    method: 'POST',
    path: apiPath(name, '/refetch'),
    answer: PushResultSchema,
  })
  const result = await withChanges(credentials, 'api refetch', name, body, options.failOn)
  // The hub fetched the document: no positions, but the waivers apply.
  return noteRevision(result, { failOn: options.failOn, waivers })
}
