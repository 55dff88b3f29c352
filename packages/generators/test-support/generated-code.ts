import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseApi } from '@svc/engine'
import { generate, type AnyGeneratorEntry } from '@svc/engine/generate'
import { afterAll } from 'vitest'

const require = createRequire(import.meta.url)
const tsc = require.resolve('typescript/bin/tsc')

/** Inputs nobody here wrote: the Petstore of @readme/oas-examples, GitHub's REST description. */
export const PETSTORE = join(
  dirname(require.resolve('@readme/oas-examples/package.json')),
  '3.0/json/petstore.json',
)
export const GITHUB_REST = join(
  dirname(require.resolve('@octokit/openapi/package.json')),
  'generated/api.github.com.json',
)

// Inside the workspace, so that generated files resolve the packages it installed (zod).
const scratch = fileURLToPath(
  new URL('../../../node_modules/.cache/svc-generators/', import.meta.url),
)
const folders: string[] = []
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })))

/** Parses a description and runs the generators over it. */
export async function generateFrom(text: string, generators: readonly AnyGeneratorEntry[]) {
  return generate({ parsed: await parseApi({ text }), generators })
}

/** Writes the files to an empty folder and type-checks them with `tsc --noEmit --strict`. */
export function typecheck(files: ReadonlyMap<string, string>) {
  mkdirSync(scratch, { recursive: true })
  const folder = mkdtempSync(scratch)
  folders.push(folder)
  for (const [path, content] of files) {
    mkdirSync(dirname(join(folder, path)), { recursive: true })
    writeFileSync(join(folder, path), content)
  }
  const options = ['--noEmit', '--strict', '--target', 'ES2022', '--module', 'NodeNext']
  const run = spawnSync(
    process.execPath,
    [tsc, ...options, '--allowImportingTsExtensions', ...files.keys()],
    { cwd: folder, encoding: 'utf8' },
  )
  return { status: run.status, output: `${run.stdout}${run.stderr}` }
}
