import { RevisionChangesSchema, type RevisionChanges } from '@svc/hub-api'
import type { CommandIO } from '../../command-io.js'
import {
  apiPath,
  formatApiName,
  hubCall,
  hubCredentials,
  parseApiName,
  type HubOptions,
  type SubcommandRecipe,
} from './common.js'
import { parseRevisionRef } from './revision-ref.js'

export type ApiChangesOptions = HubOptions & {
  readonly api?: string | undefined
  /** A sequence number (`4`, `#4`), a revision id (`rev_…`) or `latest` (the default). */
  readonly revision?: string | undefined
}

export type ApiChangesResult = RevisionChanges & {
  readonly type: 'changes'
  readonly api: string
  readonly origin: string
}

const RECIPE: SubcommandRecipe = {
  command: 'api changes',
  usage:
    'svc api changes <owner/slug> [<revision>|latest] [--origin <url>] [--token <pat>] [--json]',
  example: 'svc api changes acme/payments latest',
}

/** `svc api changes <owner/slug> [<revision>]`: a revision's changelog against the one before it. */
export async function apiChanges(
  options: ApiChangesOptions,
  io: CommandIO,
): Promise<ApiChangesResult> {
  const name = parseApiName(options.api, RECIPE)
  const revision = parseRevisionRef(
    options.revision ?? 'latest',
    { latest: true, what: 'a revision' },
    RECIPE,
    name,
  )
  const credentials = hubCredentials(options, io, RECIPE, false)
  const { body } = await hubCall(credentials, 'api read', formatApiName(name), {
    method: 'GET',
    path: apiPath(name, `/revisions/${revision}/changes`),
    answer: RevisionChangesSchema,
  })
  return { type: 'changes', api: formatApiName(name), origin: credentials.origin, ...body }
}
