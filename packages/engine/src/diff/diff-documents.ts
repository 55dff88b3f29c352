import {
  parseApi,
  type ApiSource,
  type ParseApiOptions,
  type ParseApiResult,
} from '../parse-api.js'
import { ChangelogBuilder, type Changelog } from './changelog.js'
import { diffGraphql } from './gql/diff-graphql.js'
import { diffOas } from './oas/diff-oas.js'

export type DiffOptions = Pick<ParseApiOptions, 'readFile' | 'limits'>

/** Two parsed documents and the text of each (GraphQL is diffed over its SDL definitions). */
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
  const parse = (source: ApiSource) => parseApi(source, { ...options, positions: false })
  const [old, next] = [await parse(before), await parse(after)]
  return diffParsed({ parsed: old, text: before.text }, { parsed: next, text: after.text })
}

/** Diffs two documents already parsed (the hub parses a pushed document once, to check it). */
export function diffParsed(before: DiffSide, after: DiffSide): Changelog {
  const [old, next] = [before.parsed.model, after.parsed.model]
  if (old.protocol === 'oas' && next.protocol === 'oas') return diffOas(old, next)
  if (old.protocol === 'gql' && next.protocol === 'gql') return diffGraphql(before.text, after.text)
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

function protocolName(protocol: 'oas' | 'gql'): string {
  return protocol === 'oas' ? 'OpenAPI' : 'GraphQL'
}
