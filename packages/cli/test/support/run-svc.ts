import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url))
export const SVC_BIN = fileURLToPath(new URL('../../bin/svc.js', import.meta.url))

export type SvcRun = {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
  readonly ms: number
}

export type RunOptions = {
  readonly cwd?: string
  /** Written to the child's stdin, which is then closed; without it stdin is closed at once. */
  readonly stdin?: string
  readonly timeoutMs?: number
  /** Set in the child's environment, over this process's; `undefined` removes a variable. */
  readonly env?: Readonly<Record<string, string | undefined>>
}

/** Runs the real `svc` bin in a child process, without colour, and collects everything it prints. */
export function runSvc(args: readonly string[], options: RunOptions = {}): Promise<SvcRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' }
  delete env.FORCE_COLOR
  for (const [name, value] of Object.entries(options.env ?? {}))
    if (value === undefined) delete env[name]
    else env[name] = value
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SVC_BIN, ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: options.timeoutMs ?? 60_000,
    })
    const stdout: Buffer[] = []
    const stderr: Buffer[] = []
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk))
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk))
    child.on('error', reject)
    child.on('close', (code, signal) =>
      resolve({
        code,
        signal,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
        ms: performance.now() - started,
      }),
    )
    // A child that exits before reading its stdin must not fail the run.
    child.stdin.on('error', () => {})
    child.stdin.end(options.stdin ?? '')
  })
}

/** Parses stdout as exactly one JSON value; JSON.parse rejects anything before or after it. */
export function parseJsonStdout(run: SvcRun): Record<string, unknown> {
  const value: unknown = JSON.parse(run.stdout)
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error(`stdout is JSON but not an object: ${run.stdout.slice(0, 200)}`)
  }
  return value as Record<string, unknown>
}

/** The four lines of a recipe error (SPEC §7.8), in order. */
export function recipeLines(stderr: string): {
  error: string
  usage: string
  example: string
  discover: string
} {
  const lines = stderr.trimEnd().split('\n')
  const find = (prefix: string) => {
    const index = lines.findIndex((line) => line.startsWith(prefix))
    return { index, line: index === -1 ? '' : lines[index]! }
  }
  const error = find('error: ')
  const usage = find('Usage: ')
  const example = find('Example: ')
  const discover = find('Discover: ')
  const order = [error.index, usage.index, example.index, discover.index]
  if (order.includes(-1) || order.some((index, i) => i > 0 && index !== order[i - 1]! + 1)) {
    throw new Error(`not a recipe error (error/Usage/Example/Discover lines in order):\n${stderr}`)
  }
  return { error: error.line, usage: usage.line, example: example.line, discover: discover.line }
}

/** A temporary directory of fixture files, removed by `dispose`. */
export function fixtureDir(files: Readonly<Record<string, string>>): {
  dir: string
  dispose(): void
} {
  const dir = mkdtempSync(join(tmpdir(), 'svc-e2e-'))
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) }
}

/**
 * The bin runs the compiled dist, so a source edit without a build would test old code: a stale
 * CLI fails with the command to run. A stale engine only warns, since the engine is often
 * mid-edit elsewhere and has its own tests against its sources.
 */
export function assertBuilt(): void {
  for (const pkg of ['engine', 'cli']) {
    const root = join(REPO_ROOT, 'packages', pkg)
    let built: number
    try {
      built = statSync(join(root, 'dist', '.tsbuildinfo')).mtimeMs
    } catch {
      throw new Error(`packages/${pkg} is not built; run node_modules/.bin/tsc -b first.`)
    }
    const stale = newestSource(join(root, 'src'))
    if (stale && stale.mtimeMs > built) {
      const message = `packages/${pkg}/dist is older than ${stale.path}; run node_modules/.bin/tsc -b first.`
      if (pkg === 'cli') throw new Error(message)
      console.warn(`warning: ${message}`)
    }
  }
}

function newestSource(dir: string): { path: string; mtimeMs: number } | undefined {
  let newest: { path: string; mtimeMs: number } | undefined
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (
      !entry.isFile() ||
      !entry.name.endsWith('.ts') ||
      entry.name.endsWith('.test.ts') ||
      entry.name === 'test-support.ts'
    )
      continue
    const path = join(entry.parentPath, entry.name)
    const { mtimeMs } = statSync(path)
    if (!newest || mtimeMs > newest.mtimeMs) newest = { path, mtimeMs }
  }
  return newest
}

/**
 * What stdout holds when a command could not run: nothing, or under `--json` exactly one
 * `{ type: 'error', code, exitCode, message }` object, so a script reading stdout always gets JSON.
 */
export function expectFailureStdout(run: SvcRun, args: readonly string[]): void {
  if (!args.includes('--json')) {
    if (run.stdout !== '') throw new Error(`expected nothing on stdout, got: ${run.stdout}`)
    return
  }
  const report = parseJsonStdout(run)
  if (report.type !== 'error' || report.exitCode !== run.code || typeof report.message !== 'string')
    throw new Error(
      `expected one { type: 'error', exitCode: ${run.code} } object, got: ${run.stdout}`,
    )
}
