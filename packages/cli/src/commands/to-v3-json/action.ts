import { EXIT, type ExitCode } from '../../errors.js'
import type { Output } from '../../output.js'
import { toV3Json, type ToV3JsonOptions } from './index.js'

/** `svc to-v3-json`: the OpenAPI 3 document on stdout, or written to `-o` with a one-line note. */
export async function toV3JsonAction(
  input: string | undefined,
  flags: { output?: string },
  output: Output,
  io: Omit<ToV3JsonOptions, 'input' | 'output'> = {},
): Promise<ExitCode> {
  const result = await toV3Json({ ...io, input, output: flags.output })
  if (result.wrote === undefined) {
    output.result(result.json.trimEnd())
  } else {
    const from =
      result.sourceVersion === '2.0'
        ? 'converted from Swagger 2.0'
        : `OpenAPI ${result.sourceVersion}`
    // The user's own spelling of the path: relative() turns a path outside cwd into ../../…
    output.result(`Wrote ${flags.output} (${from})`)
  }
  return EXIT.ok
}
