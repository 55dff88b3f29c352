import { extname } from 'node:path'
import type { DiffProfile } from '@svc/engine'
import {
  PushResultSchema,
  RevisionChangesSchema,
  type Change,
  type ChangelogIssues,
  type ChangeSeverity,
  type ChangeSummary,
  type PushResult,
  type Revision,
  type RevisionAcceptance,
} from '@svc/hub-api'
import type { CommandIO } from '../../command-io.js'
import { RecipeError } from '../../errors.js'
import type { HubCommand } from '../../hub/advice.js'
import type { Credentials } from '../../hub/credentials.js'
import { readCommandInput, type LoadedSource } from '../../input/read-source.js'
import {
  gateAfterWaivers,
  noteChangelog,
  type ChangelogNotes,
} from '../../report/changelog-notes.js'
import { loadWaivers, type WaiverFile } from '../../waivers/waiver-file.js'
import { describeFailure, type FailOn } from '../diff/index.js'
import {
  apiPath,
  formatApiName,
  hubCall,
  hubCredentials,
  parseApiName,
  requireArgument,
  type ApiName,
  type HubOptions,
  type SubcommandRecipe,
} from './common.js'

export type ApiPushOptions = HubOptions & {
  readonly api?: string | undefined
  /** A file path, an http(s) URL, or `-` for standard input. */
  readonly source?: string | undefined
  readonly version?: string | undefined
  readonly publishedAt?: string | undefined
  readonly failOn?: FailOn | undefined
  /** Sent as `profile`: what the gate judges; the API's `diffProfile` when it is not given. */
  readonly profile?: DiffProfile | undefined
  /** `--waivers <file>`; without it `svc-waivers.yaml` is looked for. */
  readonly waivers?: string | undefined
  /** Find the line and column of each change in the document (every format but text). */
  readonly positions?: boolean | undefined
}

/** What a push or a refetch made, with the changelog of the new revision against the one before. */
export type ApiRevisionResult = {
  /** `pushed`: a new revision; `unchanged`: the document is the latest revision's, none was made. */
  readonly type: 'pushed' | 'unchanged'
  readonly api: string
  readonly origin: string
  readonly revision: Revision
  readonly previousRevision: Revision | null
  readonly summary: ChangeSummary
  readonly counts: ChangeSeverity
  readonly changes: readonly Change[]
  readonly issues?: ChangelogIssues
  readonly webhookDeliveries: number
  /** What crossed `--fail-on` (`2 breaking changes`), when something did and was not accepted. */
  readonly failure?: { readonly failOn: FailOn; readonly crossed: string }
  /**
   * What would have crossed `--fail-on` but was accepted on the hub (`svc api accept`), by whom,
   * when and why: the gate passes.
   */
  readonly accepted?: { readonly failOn: FailOn; readonly crossed: string } & RevisionAcceptance
  /** The `--version` of a push that made no revision: the label was not applied. */
  readonly versionNotApplied?: string
  /** `--fail-on`, when given: the formats say whether the gate passed. */
  readonly failOn?: FailOn
  /** Where each change is in the pushed document and what waived it (not in `--json` as such). */
  readonly notes?: ChangelogNotes
}

const DISCOVER_FILES = "git ls-files '*.yaml' '*.yml' '*.json' '*.graphql'"

export const PUSH_RECIPE: SubcommandRecipe = {
  command: 'api push',
  usage:
    'svc api push <owner/slug> <file|url|-> [--version <label>] [--published-at <date-time>] [--fail-on breaking|warning] [--profile wire|sdk] [--waivers <file>] [--origin <url>] [--token <pat>] [--format text|json|markdown|github|junit]',
  example: 'svc api push acme/payments openapi.yaml --fail-on breaking',
}

/**
 * `svc api push <owner/slug> <file|url|->`: reads the document here (a URL is fetched by svc,
 * not by the hub), `POST …/revisions` as it is, then reads the new revision's changes.
 */
export async function apiPush(options: ApiPushOptions, io: CommandIO): Promise<ApiRevisionResult> {
  const name = parseApiName(options.api, PUSH_RECIPE)
  const input = requireArgument(
    options.source,
    'the document to push: a file path, an http(s) URL, or - for standard input',
    PUSH_RECIPE,
    DISCOVER_FILES,
  )
  if (options.publishedAt !== undefined && !isDateTime(options.publishedAt))
    throw new RecipeError({
      ...PUSH_RECIPE,
      problem: `--published-at '${options.publishedAt}' is not an ISO 8601 date-time with a zone, such as 2026-11-20T09:30:00Z.`,
      discover: 'date -u +%Y-%m-%dT%H:%M:%SZ',
    })
  if (options.version !== undefined && (options.version === '' || options.version.length > 100))
    throw new RecipeError({
      ...PUSH_RECIPE,
      problem: '--version is a label of 1 to 100 characters, such as 1.4.0.',
      discover: 'svc api revisions <owner/slug> (the labels pushed so far)',
    })
  // Read before anything is pushed: a waiver file that cannot be used stores nothing.
  const waivers = await loadWaivers(options.waivers, io.cwd)
  const credentials = hubCredentials(options, io, PUSH_RECIPE, true)
  const document = await readCommandInput(
    input,
    {
      ...PUSH_RECIPE,
      problem: 'svc api push needs the document to push.',
      discover: DISCOVER_FILES,
    },
    { cwd: io.cwd, stdin: io.stdin },
  )
  const body = pushBody(document.text, document.origin, options)
  // An envelope carries the version and timestamp itself; the profile is a query parameter always.
  const query = new URLSearchParams()
  if (!body.envelope && options.version !== undefined) query.set('version', options.version)
  if (!body.envelope && options.publishedAt !== undefined)
    query.set('publishedAt', options.publishedAt)
  if (options.profile !== undefined) query.set('profile', options.profile)
  const { body: pushed } = await hubCall(credentials, 'api push', formatApiName(name), {
    method: 'POST',
    path: apiPath(name, `/revisions${query.size === 0 ? '' : `?${query}`}`),
    answer: PushResultSchema,
    ...(body.envelope ? { json: body.envelope } : { raw: body.raw }),
  })
  const result = await withChanges(
    credentials,
    'api push',
    name,
    pushed,
    options.failOn,
    options.profile,
  )
  const noted = await noteRevision(result, { ...options, document, waivers })
  // Revisions are immutable: a label given with a document that is stored already is dropped.
  return !pushed.created &&
    options.version !== undefined &&
    options.version !== pushed.revision.version
    ? { ...noted, versionNotApplied: options.version }
    : noted
}

/**
 * The result with the place of each change in the pushed `document` (when it is given and
 * positions are asked for) and the waivers applied: what they waive no longer fails the gate.
 */
export async function noteRevision(
  result: ApiRevisionResult,
  options: {
    readonly document?: LoadedSource | undefined
    readonly positions?: boolean | undefined
    readonly waivers?: WaiverFile | undefined
    readonly failOn?: FailOn | undefined
  },
): Promise<ApiRevisionResult> {
  const withGate = options.failOn === undefined ? result : { ...result, failOn: options.failOn }
  // No changelog was read (a first revision; an unchanged one without a gate): nothing to note.
  const judged =
    result.previousRevision !== null && (result.type === 'pushed' || options.failOn !== undefined)
  if (!judged) return withGate
  const notes = await noteChangelog(result, {
    after: options.document,
    positions: options.positions ?? false,
    waivers: options.waivers,
  })
  if (notes === undefined) return withGate
  const { failure: _failure, ...rest } = withGate
  const failure = gateAfterWaivers(result.changes, notes, result.failure)
  return { ...rest, notes, ...(failure === undefined ? {} : { failure }) }
}

/**
 * The pushed result with the changelog of its revision (`GET …/revisions/{id}/changes`), unless
 * the revision is the first or nothing was made and there is no gate; and what crossed `failOn`.
 */
export async function withChanges(
  credentials: Credentials,
  command: HubCommand,
  name: ApiName,
  pushed: PushResult,
  failOn: FailOn | undefined,
  /** The changelog's profile, as the push asked for it; the revision's own when not given. */
  profile?: DiffProfile,
): Promise<ApiRevisionResult> {
  const base = {
    type: pushed.created ? 'pushed' : 'unchanged',
    api: formatApiName(name),
    origin: credentials.origin,
    revision: pushed.revision,
    previousRevision: pushed.previousRevision,
    summary: pushed.summary,
    counts: pushed.counts,
    changes: [] as readonly Change[],
    webhookDeliveries: pushed.webhookDeliveries,
  } as const
  // An unchanged push is judged too: a re-run of a CI job whose gate failed pushes the same
  // bytes, and must fail again rather than pass on "no change".
  if (pushed.previousRevision === null || (!pushed.created && failOn === undefined)) return base
  const { body } = await hubCall(credentials, command, formatApiName(name), {
    method: 'GET',
    path: apiPath(
      name,
      `/revisions/${pushed.revision.id}/changes${profile === undefined ? '' : `?profile=${profile}`}`,
    ),
    answer: RevisionChangesSchema,
  })
  const crossed = failOn ? describeFailure(body, failOn) : undefined
  // Changes accepted on the hub as deliberate pass the gate; the result says who accepted them.
  const { acceptance } = body.revision
  const gate =
    crossed === undefined || failOn === undefined
      ? {}
      : acceptance
        ? { accepted: { failOn, crossed, ...acceptance } }
        : { failure: { failOn, crossed } }
  return {
    ...base,
    revision: body.revision,
    summary: body.summary,
    counts: body.counts,
    changes: body.changes,
    ...(body.issues === undefined ? {} : { issues: body.issues }),
    ...gate,
  }
}

/**
 * The request body: the document as it is, with the media type its name or content says, or the
 * JSON envelope for a JSON document the hub would take for one (a top-level `document` key).
 */
export function pushBody(
  text: string,
  origin: string,
  options: Pick<ApiPushOptions, 'version' | 'publishedAt'>,
):
  | { envelope: Record<string, string>; raw?: undefined }
  | { envelope?: undefined; raw: { bytes: string; contentType: string } } {
  const contentType = mediaType(text, origin)
  if (contentType === 'application/json' && looksLikeEnvelope(text))
    return {
      envelope: {
        document: text,
        ...(options.version === undefined ? {} : { version: options.version }),
        ...(options.publishedAt === undefined ? {} : { publishedAt: options.publishedAt }),
      },
    }
  return { raw: { bytes: text, contentType } }
}

function mediaType(text: string, origin: string): string {
  const extension = extname(origin.replace(/[?#].*$/, '')).toLowerCase()
  if (extension === '.graphql' || extension === '.gql' || extension === '.graphqls')
    return 'application/graphql'
  if (extension === '.json') return 'application/json'
  if (extension === '.yaml' || extension === '.yml') return 'application/yaml'
  const start = text.replace(/^\uFEFF/, '').trimStart()
  if (start.startsWith('{') || start.startsWith('[')) return 'application/json'
  if (
    /^(?:type|schema|extend|interface|union|enum|input|scalar|directive)\s+[A-Za-z_{@]/.test(start)
  )
    return 'application/graphql'
  return 'application/yaml'
}

function looksLikeEnvelope(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text)
    return (
      typeof value === 'object' &&
      value !== null &&
      'document' in value &&
      !('openapi' in value) &&
      !('swagger' in value)
    )
  } catch {
    return false
  }
}

function isDateTime(value: string): boolean {
  return (
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/.test(value) &&
    !Number.isNaN(Date.parse(value))
  )
}
