import { readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { DocumentError, toV3Json as convert } from '@svc/engine'
import type { CommandIO } from '../../command-io.js'
import { CommandError, type Recipe } from '../../errors.js'
import { readCommandInput } from '../../input/read-source.js'

export type ToV3JsonOptions = {
  readonly input?: string | undefined
  /** Write the document here instead of stdout. */
  readonly output?: string | undefined
}

export type ToV3JsonResult = {
  readonly type: 'converted'
  readonly schema: Record<string, unknown>
  readonly sourceVersion: string
  /** The document as indented JSON text, ending in a newline. */
  readonly json: string
  /** Where the document was written, when `output` was given: as the user spelled it, and absolute. */
  readonly wrote?: { readonly given: string; readonly path: string }
}

const RECIPE: Recipe = {
  problem: 'svc to-v3-json needs an OpenAPI document: a file path, a URL, or - for standard input.',
  usage: 'svc to-v3-json <file|url|-> [-o out.json]',
  example: 'svc to-v3-json ./swagger.yaml -o openapi.json',
  discover: "git ls-files '*.yaml' '*.yml' '*.json'",
}

/** Converts any OpenAPI document to OpenAPI 3 JSON (2.0 converted; 3.0 and 3.1 normalised to JSON). */
export async function toV3Json(options: ToV3JsonOptions, io: CommandIO): Promise<ToV3JsonResult> {
  const loaded = await readCommandInput(options.input, RECIPE, { cwd: io.cwd, stdin: io.stdin })
  const result = await convert(
    { text: loaded.text, origin: loaded.origin },
    loaded.isFile ? { readFile: (path: string) => readFileSync(path, 'utf8') } : {},
  )
  const json = serialize(result.schema)
  if (options.output === undefined) return { type: 'converted', ...result, json }
  const wrote = resolve(io.cwd, options.output)
  try {
    writeFileSync(wrote, json)
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message
    throw new CommandError(`Cannot write ${options.output}: ${reason}.`, { cause: error })
  }
  return { type: 'converted', ...result, json, wrote: { given: options.output, path: wrote } }
}

/** JSON.stringify recurses, so nesting that JSON.parse and the parser accept can still overflow it. */
function serialize(schema: Record<string, unknown>): string {
  try {
    return JSON.stringify(schema, null, 2) + '\n'
  } catch (error) {
    if (!(error instanceof RangeError)) throw error
    const [code, problem] = /call stack/i.test(error.message)
      ? (['too_deep', 'nested too deeply'] as const)
      : (['too_large', 'too large'] as const)
    throw new DocumentError(code, `The converted document is ${problem} to write as JSON.`, {
      cause: error,
    })
  }
}
