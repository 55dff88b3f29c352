import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join, relative } from 'node:path'
import { afterAll, expect } from 'vitest'
import { typecheck } from '../../../generators/test-support/typecheck.js'
import { REPO_ROOT, runSvc, type RunOptions } from './run-svc.js'

/** Inputs nobody here wrote. */
export const PETSTORE = join(REPO_ROOT, 'node_modules/@readme/oas-examples/3.0/json/petstore.json')
export const GITHUB_REST = join(
  REPO_ROOT,
  'node_modules/@octokit/openapi/generated/api.github.com.json',
)
export const GITHUB_GRAPHQL = join(REPO_ROOT, 'node_modules/@octokit/graphql-schema/schema.graphql')

// Inside the workspace, so that generated code resolves the packages it imports (zod).
const scratch = join(REPO_ROOT, 'node_modules/.cache/svc-cli-e2e/')
const roots: string[] = []
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })))

/** An empty folder to be an app root, and the real `svc` bin run in it. */
export function createAppRoot() {
  mkdirSync(scratch, { recursive: true })
  const dir = mkdtempSync(scratch)
  roots.push(dir)
  return {
    dir,
    svc: (args: readonly string[], options: Omit<RunOptions, 'cwd'> = {}) =>
      runSvc(args, { timeoutMs: 180_000, ...options, cwd: dir }),
    read: (path: string) => readFileSync(join(dir, path), 'utf8'),
    json: (path: string) =>
      JSON.parse(readFileSync(join(dir, path), 'utf8')) as Record<string, any>,
    /** Every file under `path`, relative to it, sorted. */
    files: (path: string) =>
      readdirSync(join(dir, path), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => relative(join(dir, path), join(entry.parentPath, entry.name)))
        .sort(),
  }
}

export type AppRoot = ReturnType<typeof createAppRoot>

/** `svc init <name>` and `svc install <generators>` in a new app root. */
export async function createProject(
  generators: readonly string[],
  name = 'demo',
): Promise<AppRoot> {
  const root = createAppRoot()
  expect((await root.svc(['init', name])).code).toBe(0)
  expect((await root.svc(['install', ...generators])).code).toBe(0)
  return root
}

/** `tsc --noEmit --strict` over every .ts file of a folder: `{ status: 0, output: '' }` when clean. */
/** `tsc --strict` over every `.ts` file of a folder, in this process. */
export function typecheckFolder(folder: string) {
  const files = readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((f) =>
    f.endsWith('.ts'),
  )
  const diagnostics = typecheck(
    new Map(files.map((f) => [f, readFileSync(join(folder, f), 'utf8')])),
  )
  return { status: diagnostics.length === 0 ? 0 : 2, output: diagnostics.join('\n') }
}
