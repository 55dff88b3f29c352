import { RevisionChangesSchema, type RevisionChanges } from '@svc/hub-api'
import type { CommandIO } from '../../command-io.js'
import { RecipeError } from '../../errors.js'
import {
  apiPath,
  formatApiName,
  hubCall,
  hubCredentials,
  parseApiName,
  type HubOptions,
  type SubcommandRecipe,
} from './common.js'

export type ApiChangesOptions = HubOptions & {
  readonly api?: string | undefined
  /** A revision id (`rev_…`) or `latest` (the default). */
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
  const revision = options.revision ?? 'latest'
  if (!/^(?:latest|rev_[a-z0-9]{1,64})$/.test(revision))
    throw new RecipeError({
      ...RECIPE,
      problem: `'${revision}' is not a revision: give its id (rev_…) or latest.`,
      discover: `svc api revisions ${formatApiName(name)}`,
    })
  const credentials = hubCredentials(options, io, RECIPE, false)
  const { body } = await hubCall(credentials, 'api read', formatApiName(name), {
    method: 'GET',
    path: apiPath(name, `/revisions/${revision}/changes`),
    answer: RevisionChangesSchema,
  })
  return { type: 'changes', api: formatApiName(name), origin: credentials.origin, ...body }
}
