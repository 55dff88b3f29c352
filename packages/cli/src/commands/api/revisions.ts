import { RevisionListSchema, type Revision } from '@svc/hub-api'
import type { CommandIO } from '../../command-io.js'
import {
  allPages,
  apiPath,
  formatApiName,
  hubCredentials,
  parseApiName,
  type HubOptions,
  type SubcommandRecipe,
} from './common.js'

export type ApiRevisionsOptions = HubOptions & { readonly api?: string | undefined }

export type ApiRevisionsResult = {
  readonly type: 'revisions'
  readonly api: string
  readonly origin: string
  /** Newest first. */
  readonly revisions: readonly Revision[]
}

const RECIPE: SubcommandRecipe = {
  command: 'api revisions',
  usage: 'svc api revisions <owner/slug> [--origin <url>] [--token <pat>] [--json]',
  example: 'svc api revisions acme/payments',
}

/** `svc api revisions <owner/slug>`: every revision, newest first; a public API needs no token. */
export async function apiRevisions(
  options: ApiRevisionsOptions,
  io: CommandIO,
): Promise<ApiRevisionsResult> {
  const name = parseApiName(options.api, RECIPE)
  const credentials = hubCredentials(options, io, RECIPE, false)
  const revisions = await allPages(
    credentials,
    'api read',
    formatApiName(name),
    { path: apiPath(name, '/revisions'), answer: RevisionListSchema },
    (page) => page.revisions,
  )
  return { type: 'revisions', api: formatApiName(name), origin: credentials.origin, revisions }
}
