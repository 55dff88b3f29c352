import {
  AcceptanceResultSchema,
  type ChangeSeverity,
  type Revision,
  type RevisionAcceptance,
} from '@svc/hub-api'
import type { CommandIO } from '../../command-io.js'
import { RecipeError } from '../../errors.js'
import {
  apiPath,
  formatApiName,
  hubCall,
  hubCredentials,
  parseApiName,
  requireArgument,
  type HubOptions,
  type SubcommandRecipe,
} from './common.js'
import { parseRevisionRef } from './revision-ref.js'

export type ApiAcceptOptions = HubOptions & {
  readonly api?: string | undefined
  /** A sequence number (`4`, `#4`) or a revision id (`rev_…`). */
  readonly revision?: string | undefined
  readonly reason?: string | undefined
}

/** Who accepted which revision's changes, and how many of each level. */
export type ApiAcceptResult = {
  readonly type: 'accepted'
  readonly api: string
  readonly origin: string
  readonly revision: Revision
  readonly acceptance: RevisionAcceptance
  /** The changes accepted, per level. */
  readonly counts: ChangeSeverity
  readonly webhookDeliveries: number
}

/** The most a reason may hold (the hub's limit). */
const MAX_REASON = 500

export const ACCEPT_RECIPE: SubcommandRecipe = {
  command: 'api accept',
  usage:
    'svc api accept <owner/slug> <revision> --reason <text> [--origin <url>] [--token <pat>] [--json]',
  example: 'svc api accept acme/payments 4 --reason "v2 drops POST /pets, announced in March"',
}

/**
 * `svc api accept <owner/slug> <revision> --reason <text>`: records on the hub that the
 * revision's breaking changes and warnings are deliberate (`POST …/revisions/{id}/acceptance`);
 * a `--fail-on` gate of `svc api push` then passes on that revision.
 */
export async function apiAccept(
  options: ApiAcceptOptions,
  io: CommandIO,
): Promise<ApiAcceptResult> {
  const name = parseApiName(options.api, ACCEPT_RECIPE)
  const revision = parseRevisionRef(
    requireArgument(
      options.revision,
      'the revision whose changes to accept: its sequence number (4 or #4) or its id (rev_…)',
      ACCEPT_RECIPE,
      `svc api revisions ${formatApiName(name)}`,
    ),
    { latest: false, what: 'a revision' },
    ACCEPT_RECIPE,
    name,
  )
  const reason = options.reason?.trim() ?? ''
  if (reason === '' || reason.length > MAX_REASON)
    throw new RecipeError({
      ...ACCEPT_RECIPE,
      problem:
        reason === ''
          ? 'svc api accept needs --reason: why the changes are deliberate, in 1 to 500 characters.'
          : `--reason has ${reason.length} characters; at most ${MAX_REASON}.`,
      discover: `svc api changes ${formatApiName(name)} ${revision} (the changes you accept)`,
    })
  const credentials = hubCredentials(options, io, ACCEPT_RECIPE, true)
  const { body } = await hubCall(credentials, 'api accept', formatApiName(name), {
    method: 'POST',
    path: apiPath(name, `/revisions/${revision}/acceptance`),
    answer: AcceptanceResultSchema,
    json: { reason },
  })
  return { type: 'accepted', api: formatApiName(name), origin: credentials.origin, ...body }
}
