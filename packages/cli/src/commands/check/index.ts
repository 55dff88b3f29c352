import { readFileSync } from 'node:fs'
import {
  parseApi,
  summarizeIssues,
  type IssueSummary,
  type ParseIssue,
  type SourceInfo,
} from '@svc/engine'
import type { Recipe } from '../../errors.js'
import { readCommandInput } from '../../input/read-source.js'

export type CheckOptions = {
  /** A file path, an http(s) URL, or `-` for standard input. */
  readonly input?: string | undefined
  readonly cwd?: string
  readonly stdin?: NodeJS.ReadableStream
  readonly maxBytes?: number
}

export type CheckResult = {
  /** Where the document came from: an absolute path, a URL, or `<stdin>`. */
  readonly origin: string
  readonly source: SourceInfo
  readonly parseIssues: readonly ParseIssue[]
  readonly summary: IssueSummary
}

export const CHECK_RECIPE: Recipe = {
  problem: 'svc check needs an API description: a file path, a URL, or - for standard input.',
  usage: 'svc check <file|url|-> [--json] [--debug] [--max-bytes N]',
  example: 'svc check ./openapi.yaml',
  discover: "git ls-files '*.yaml' '*.yml' '*.json' '*.graphql'",
}

/**
 * Parses an API description and returns every parse issue (SPEC §7.4, §7.5). Throws a
 * RecipeError when the input is missing, a DocumentError when it cannot be read.
 */
export async function check(options: CheckOptions): Promise<CheckResult> {
  const loaded = await readCommandInput(options.input, CHECK_RECIPE, options)
  const result = await parseApi(
    { text: loaded.text, origin: loaded.origin },
    {
      ...(loaded.isFile ? { readFile: (path: string) => readFileSync(path, 'utf8') } : {}),
      ...(options.maxBytes ? { limits: { maxBytes: options.maxBytes } } : {}),
      positions: true,
    },
  )
  return {
    origin: loaded.origin,
    source: result.source,
    parseIssues: result.parseIssues,
    summary: summarizeIssues(result.parseIssues),
  }
}
