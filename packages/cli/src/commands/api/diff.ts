import {
  DocumentError,
  isDocumentErrorCode,
  type Changelog,
  type DiffPolicy,
  type DiffProfile,
} from '@svc/engine'
import { RevisionDiffSchema, type Revision } from '@svc/hub-api'
import type { CommandIO } from '../../command-io.js'
import { CommandError } from '../../errors.js'
import { hubAdvice } from '../../hub/advice.js'
import { HubError, hubRequest } from '../../hub/hub-client.js'
import { readCommandInput } from '../../input/read-source.js'
import { finishDiff, type DiffResult, type FailOn } from '../diff/index.js'
import { loadWaivers } from '../../waivers/waiver-file.js'
import {
  apiPath,
  formatApiName,
  hubCredentials,
  parseApiName,
  requireArgument,
  type HubOptions,
  type SubcommandRecipe,
} from './common.js'
import { pushBody } from './push.js'
import { parseRevisionRef } from './revision-ref.js'

export type ApiDiffOptions = HubOptions & {
  readonly api?: string | undefined
  /** The new document: a file path, an http(s) URL, or `-` for standard input. */
  readonly source?: string | undefined
  /** The revision to compare with: `latest` (the default), a sequence number, `#5` or `rev_…`. */
  readonly against?: string | undefined
  readonly failOn?: FailOn | undefined
  readonly policies?: readonly DiffPolicy[] | undefined
  /** Sent as `profile`: the hub judges with the API's `diffProfile` when it is not given. */
  readonly profile?: DiffProfile | undefined
  /** Find the line and column of each change in the document (every format but text). */
  readonly positions?: boolean | undefined
  /** `--waivers <file>`; default `svc-waivers.yaml` here or above. */
  readonly waivers?: string | undefined
}

/**
 * What `svc diff` answers, with the hub's revision as the old document (`oldOrigin`
 * `acme/payments#4 (hub)`); or, when the API has no revision yet, that there is nothing to
 * compare with.
 */
export type ApiDiffResult =
  DiffResult | { readonly type: 'first'; readonly api: string; readonly newOrigin: string }

const DISCOVER_FILES = "git ls-files '*.yaml' '*.yml' '*.json' '*.graphql'"

export const API_DIFF_RECIPE: SubcommandRecipe = {
  command: 'api diff',
  usage:
    'svc api diff <owner/slug> <file|url|-> [--against latest|<revision>] [--fail-on breaking|warning] [--policy <name>] [--profile wire|sdk] [--waivers <file>] [--origin <url>] [--token <pat>] [--format text|json|markdown|github|junit]',
  example: 'svc api diff acme/payments openapi.yaml --fail-on breaking',
}

/**
 * `svc api diff <owner/slug> <file|url|->`: the changelog of the document against a revision on
 * the hub (`POST …/diff`), which stores nothing; judged by `--fail-on` as `svc diff` judges.
 */
export async function apiDiff(options: ApiDiffOptions, io: CommandIO): Promise<ApiDiffResult> {
  const name = parseApiName(options.api, API_DIFF_RECIPE)
  const input = requireArgument(
    options.source,
    'the document to compare: a file path, an http(s) URL, or - for standard input',
    API_DIFF_RECIPE,
    DISCOVER_FILES,
  )
  const against = parseRevisionRef(
    options.against ?? 'latest',
    { latest: true, what: 'a revision to compare with' },
    API_DIFF_RECIPE,
    name,
  )
  // Read before anything is sent: a waiver file that cannot be used ends the command (exit 2).
  const waivers = await loadWaivers(options.waivers, io.cwd)
  const credentials = hubCredentials(options, io, API_DIFF_RECIPE, false)
  const document = await readCommandInput(
    input,
    {
      ...API_DIFF_RECIPE,
      problem: 'svc api diff needs the document to compare.',
      discover: DISCOVER_FILES,
    },
    { cwd: io.cwd, stdin: io.stdin },
  )
  const query = new URLSearchParams({ against })
  if (options.policies?.length) query.set('policy', options.policies.join(','))
  if (options.profile !== undefined) query.set('profile', options.profile)
  const body = pushBody(document.text, document.origin, {})
  const api = formatApiName(name)
  let answer
  try {
    answer = await hubRequest(credentials.origin, credentials.token, {
      method: 'POST',
      path: apiPath(name, `/diff?${query}`),
      answer: RevisionDiffSchema,
      ...(body.envelope ? { json: body.envelope } : { raw: body.raw }),
    })
  } catch (error) {
    // The document is not an API description: unreadable, as `svc diff` says of such a file.
    if (error instanceof HubError && error.code === 'invalid_document')
      return { type: 'unreadable', error: documentError(error, document.origin) }
    throw new CommandError(
      hubAdvice('api diff', error, {
        origin: credentials.origin,
        target: api,
        token: credentials.token,
      }),
    )
  }
  const { against: revision, issues, ...rest } = answer.body
  if (revision === null) return { type: 'first', api, newOrigin: document.origin }
  // The hub's changelog is `svc diff --json`'s; its rule ids are strings the engine may not know.
  const changelog = { ...rest, ...(issues === undefined ? {} : { issues }) } as unknown as Changelog
  return finishDiff(changelog, {
    after: document,
    oldOrigin: hubOrigin(api, revision),
    failOn: options.failOn,
    positions: options.positions ?? false,
    waivers,
  })
}

/** `acme/payments#4 (hub)`: where the old document of the diff came from. */
function hubOrigin(api: string, revision: Revision): string {
  return `${api}#${revision.sequence} (hub)`
}

/** The hub's 422 `invalid_document` as the engine's DocumentError, at the file. */
function documentError(error: HubError, file: string): DocumentError {
  const details = (error.hub?.details ?? {}) as { reason?: string; line?: number; column?: number }
  const code = isDocumentErrorCode(details.reason) ? details.reason : 'unreadable'
  // The hub wraps the engine's sentence: `The document is not an API description: <sentence>.`
  const message = (error.hub?.message ?? error.message).replace(
    /^The document is not an API description: (.)/,
    (_, first: string) => first.toUpperCase(),
  )
  return new DocumentError(code, message, {
    file,
    ...(details.line === undefined ? {} : { line: details.line }),
    ...(details.column === undefined ? {} : { column: details.column }),
  })
}
