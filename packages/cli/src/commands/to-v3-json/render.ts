import { EXIT, type ExitCode } from '../../errors.js'
import type { Output } from '../../output.js'
import type { ToV3JsonResult } from './index.js'

/** `svc to-v3-json`: the OpenAPI 3 document on stdout, or written to `-o` with a one-line note. */
export function renderToV3Json(result: ToV3JsonResult, output: Output): ExitCode {
  if (result.wrote === undefined) {
    output.result(result.json.trimEnd())
    return EXIT.ok
  }
  const from =
    result.sourceVersion === '2.0'
      ? 'converted from Swagger 2.0'
      : `OpenAPI ${result.sourceVersion}`
  // The user's own spelling of the path: relative() turns a path outside cwd into ../../…
  output.result(`Wrote ${result.wrote.given} (${from})`)
  return EXIT.ok
}
