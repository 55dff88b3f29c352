import { detectTextKind } from '../input/detect-protocol.js'
import { DocumentError, isStackOverflow } from '../input/document-error.js'
import { DEFAULT_LIMITS } from '../input/limits.js'
import {
  checkSize,
  parseApi,
  type ApiSource,
  type ParseApiOptions,
  type ParseApiResult,
} from '../parse-api.js'
import { ChangelogBuilder, type Changelog } from './changelog.js'
import { diffOas } from './oas/diff-oas.js'
import type { PolicyOptions } from './policies.js'

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
    // Two schemas: the diff reads their definitions, so the model is not built at all.
    const limits = { ...DEFAULT_LIMITS, ...options.limits }
    checkSize(before.text, limits)
    checkSize(after.text, limits)
    try {
      return await diffSdl(before.text, after.text)
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
    { policies: options.policies, now: options.now },
  )
}

/** Diffs two documents already parsed (the hub parses a pushed document once, to check it). */
export async function diffParsed(
  before: DiffSide,
  after: DiffSide,
  options: PolicyOptions = {},
): Promise<Changelog> {
  const [old, next] = [before.parsed.model, after.parsed.model]
  if (old.protocol === 'oas' && next.protocol === 'oas') return diffOas(old, next, options)
  if (old.protocol === 'gql' && next.protocol === 'gql') return diffSdl(before.text, after.text)
  const log = new ChangelogBuilder()
  log.add(
    'api-protocol-changed',
    '',
    `The description changed from ${protocolName(old.protocol)} to ${protocolName(next.protocol)}.`,
  )
  log.count('operations', 'deleted', old.operations.length)
  log.count('operations', 'added', next.operations.length)
  return log.finish()
}

/** graphql-js is loaded only when there is SDL to diff. */
async function diffSdl(before: string, after: string): Promise<Changelog> {
  const [{ parseSdl }, { diffGraphqlDocuments }] = await Promise.all([
    import('../gql/parse-graphql.js'),
    import('./gql/diff-graphql.js'),
  ])
  return diffGraphqlDocuments(
    parseSdl(before, { noLocation: true }),
    parseSdl(after, { noLocation: true }),
  )
}

function protocolName(protocol: 'oas' | 'gql'): string {
  return protocol === 'oas' ? 'OpenAPI' : 'GraphQL'
}
