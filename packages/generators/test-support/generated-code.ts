import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { parseApi } from '@svc/engine'
import { generate, type AnyGeneratorEntry } from '@svc/engine/generate'

export { STRICTEST, typecheck } from './typecheck.js'

const require = createRequire(import.meta.url)

/** Inputs nobody here wrote: the Petstore of @readme/oas-examples, GitHub's REST description. */
export const PETSTORE = join(
  dirname(require.resolve('@readme/oas-examples/package.json')),
  '3.0/json/petstore.json',
)
export const GITHUB_REST = join(
  dirname(require.resolve('@octokit/openapi/package.json')),
  'generated/api.github.com.json',
)

/** Parses a description and runs the generators over it. */
export async function generateFrom(text: string, generators: readonly AnyGeneratorEntry[]) {
  return generate({ parsed: await parseApi({ text }), generators })
}
