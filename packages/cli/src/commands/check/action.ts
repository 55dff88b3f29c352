import { isAbsolute, relative } from 'node:path'
import { DocumentError } from '@svc/engine'
import { documentErrorJson, EXIT, formatDocumentError, type ExitCode } from '../../errors.js'
import type { Output } from '../../output.js'
import { check, type CheckOptions } from './index.js'
import { renderCheck } from './render.js'

export type CheckFlags = { json?: boolean; debug?: boolean; maxBytes?: number }

/**
 * `svc check`: the report on stdout (text, or exactly one JSON object with `--json`); exit 1
 * when any issue is an error or the document cannot be read.
 */
export async function checkAction(
  input: string | undefined,
  flags: CheckFlags,
  output: Output,
  io: Omit<CheckOptions, 'input'> = {},
): Promise<ExitCode> {
  const cwd = io.cwd ?? process.cwd()
  try {
    const result = await check({
      ...io,
      input,
      ...(flags.maxBytes ? { maxBytes: flags.maxBytes } : {}),
    })
    if (flags.json) {
      output.json({ parseIssues: result.parseIssues, summary: result.summary })
    } else {
      const displayPath = (path: string) => (isAbsolute(path) ? relative(cwd, path) || path : path)
      for (const line of renderCheck(result, {
        debug: Boolean(flags.debug),
        color: output.color,
        displayPath,
      }))
        output.result(line)
    }
    return result.summary.error > 0 ? EXIT.failure : EXIT.ok
  } catch (error) {
    if (!(error instanceof DocumentError) || !flags.json) throw error
    output.diagnostic(formatDocumentError(error))
    output.json({
      parseIssues: [],
      summary: { error: 0, warning: 0, debug: 0 },
      error: documentErrorJson(error),
    })
    return EXIT.failure
  }
}
