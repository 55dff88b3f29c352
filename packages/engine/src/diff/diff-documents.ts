import { detectTextKind } from '../input/detect-protocol.js'
import { DocumentError, isStackOverflow } from '../input/document-error.js'
import { DEFAULT_LIMITS } from '../input/limits.js'
import type { OasModel } from '../model/index.js'
import {
  checkSize,
  loadOpenApi,
  parseApi,
  type ApiSource,
  type ParseApiOptions,
  type ParseApiResult,
} from '../parse-api.js'
import { ChangelogBuilder, mergeChangelogs, type Changelog } from './changelog.js'
import { diffOas } from './oas/diff-oas.js'
import type { PolicyOptions } from './policies.js'
import {
  errorIssues,
  failureChangelog,
  OasFailures,
  sameValue,
  valueAt,
  type SideIssues,
} from './parse-failures.js'

/** `policies` turn on convention rules (sunset, stability, version); OpenAPI only. */
export type DiffOptions = Pick<ParseApiOptions, 'readFile' | 'limits'> & PolicyOptions

/** A parsed document and its text (GraphQL is diffed over its SDL definitions). */
export type DiffSide = { readonly parsed: ParseApiResult; readonly text: string }

/**
 * Parses two API descriptions and returns what changed from `before` to `after`. Throws the
 * parse's `DocumentError` when either cannot be read as an API description at all.
 */
export async function diffDocuments(
  before: ApiSource,
  after: ApiSource,
  options: DiffOptions = {},
): Promise<Changelog> {
  if (detectTextKind(before.text) === 'sdl' && detectTextKind(after.text) === 'sdl') {
    // Two schemas: the diff reads their definitions, so the model is built only for a schema
    // that may have parse errors, to find them.
    const limits = { ...DEFAULT_LIMITS, ...options.limits }
    checkSize(before.text, limits)
    checkSize(after.text, limits)
    try {
      const { diffSdl } = await import('./diff-sdl.js')
      return diffSdl(before.text, after.text)
    } catch (error) {
      if (!isStackOverflow(error)) throw error
      throw new DocumentError('too_deep', 'The document is nested too deeply to read.', {
        cause: error,
      })
    }
  }
  const parse = (source: ApiSource) => parseApi(source, { ...options, positions: false })
  const [old, next] = [await parse(before), await parse(after)]
  return diffParsed(
    { parsed: old, text: before.text },
    { parsed: next, text: after.text },
    {
      policies: options.policies,
      now: options.now,
      profile: options.profile,
      sdkGenerators: options.sdkGenerators,
    },
  )
}

/**
 * Diffs two documents already parsed (the hub parses a pushed document once, to check it). Items
 * with error-level parse issues on either side are reported as changes of their own, never left
 * out, and the changelog then carries those issues.
 */
export async function diffParsed(
  before: DiffSide,
  after: DiffSide,
  options: PolicyOptions = {},
): Promise<Changelog> {
  const issues: SideIssues = {
    before: errorIssues(before.parsed.parseIssues),
    after: errorIssues(after.parsed.parseIssues),
  }
  const clean = issues.before.length + issues.after.length === 0
  const [old, next] = [before.parsed.model, after.parsed.model]
  if (old.protocol === 'oas' && next.protocol === 'oas')
    return clean
      ? diffOas(old, next, options)
      : diffFailedOas(old, next, before.text, after.text, issues, options)
  if (old.protocol === 'gql' && next.protocol === 'gql') {
    const [{ parseSdl }, { diffSdlDocuments }] = await Promise.all([
      import('../gql/parse-graphql.js'),
      import('./diff-sdl.js'),
    ])
    const read = (text: string) => parseSdl(text, { noLocation: true })
    return diffSdlDocuments(read(before.text), read(after.text), issues)
  }
  const log = new ChangelogBuilder()
  log.add(
    'api-protocol-changed',
    '',
    `The description changed from ${protocolName(old.protocol)} to ${protocolName(next.protocol)}.`,
  )
  log.count('operations', 'deleted', old.operations.length)
  log.count('operations', 'added', next.operations.length)
  const changelog = log.finish()
  return clean ? changelog : { ...changelog, issues }
}

/** The diff of what parsed on both sides, with one change for each item that failed on either. */
async function diffFailedOas(
  old: OasModel,
  next: OasModel,
  beforeText: string,
  afterText: string,
  issues: SideIssues,
  options: PolicyOptions,
): Promise<Changelog> {
  const failures = new OasFailures(old, next, issues)
  const log = diffOas(failures.without(old), failures.without(next), options)
  // Whether an item broken on both sides changed is read from the documents themselves.
  const both = failures.failed.some((item) => item.before.length > 0 && item.after.length > 0)
  const [rawBefore, rawAfter] = both
    ? await Promise.all([rawDocument(beforeText), rawDocument(afterText)])
    : [undefined, undefined]
  const changes = failureChangelog(failures.failed, {
    present: (item, side) =>
      item[side].length > 0 || failures.has(side === 'before' ? old : next, item),
    unchanged: (item) => {
      const a = valueAt(rawBefore, item.raw)
      return a !== undefined && sameValue(a, valueAt(rawAfter, item.raw))
    },
  })
  return { ...mergeChangelogs(log, changes), issues }
}

async function rawDocument(text: string): Promise<unknown> {
  try {
    return (await loadOpenApi({ text }, {}, DEFAULT_LIMITS)).document
  } catch {
    return undefined
  }
}

function protocolName(protocol: 'oas' | 'gql'): string {
  return protocol === 'oas' ? 'OpenAPI' : 'GraphQL'
}
