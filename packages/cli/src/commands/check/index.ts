import { readFileSync } from 'node:fs'
import {
  DocumentError,
  parseApi,
  summarizeIssues,
  type IssueSummary,
  type ParseIssue,
  type SourceInfo,
} from '@svc/engine'
import type { CommandIO } from '../../command-io.js'
import type { Recipe } from '../../errors.js'
import { readCommandInput } from '../../input/read-source.js'

export type CheckOptions = {
  /** A file path, an http(s) URL, or `-` for standard input. */
  readonly input?: string | undefined
  readonly maxBytes?: number | undefined
}

export type CheckResult =
  | {
      readonly type: 'checked'
      /** Where the document came from: an absolute path, a URL, or `<stdin>`. */
      readonly origin: string
      readonly source: SourceInfo
      readonly parseIssues: readonly ParseIssue[]
      readonly summary: IssueSummary
    }
  | { readonly type: 'unreadable'; readonly error: DocumentError }

export const CHECK_RECIPE: Recipe = {
  problem: 'svc check needs an API description: a file path, a URL, or - for standard input.',
  usage: 'svc check <file|url|-> [--json] [--debug] [--max-bytes N]',
  example: 'svc check ./openapi.yaml',
  discover: "git ls-files '*.yaml' '*.yml' '*.json' '*.graphql'",
}

/**
 * Parses an API description and returns every parse issue, or why the document cannot be read.
 * Throws a RecipeError when the input is missing.
 */
export async function check(options: CheckOptions, io: CommandIO): Promise<CheckResult> {
  try {
    const loaded = await readCommandInput(options.input, CHECK_RECIPE, {
      cwd: io.cwd,
      stdin: io.stdin,
      maxBytes: options.maxBytes,
    })
    const result = await parseApi(
      { text: loaded.text, origin: loaded.origin },
      {
        ...(loaded.isFile ? { readFile: (path: string) => readFileSync(path, 'utf8') } : {}),
        ...(options.maxBytes ? { limits: { maxBytes: options.maxBytes } } : {}),
        positions: true,
      },
    )
    return {
      type: 'checked',
      origin: loaded.origin,
      source: result.source,
      parseIssues: result.parseIssues,
      summary: summarizeIssues(result.parseIssues),
    }
  } catch (error) {
    if (error instanceof DocumentError) return { type: 'unreadable', error }
    throw error
  }
}
