import { existsSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { SLUG_PATTERN } from '@svc/project-format'

/** The folder of an app root that holds its svc projects. */
export const SVC_DIR = '.svc'

/** A project name: a folder under `.svc/`, and the default slug of its stack, so a slug. */
export const PROJECT_NAME = SLUG_PATTERN

/**
 * The app root of `cwd`: the nearest folder, `cwd` or above, that holds `.svc/`. Undefined when
 * none does; `svc init` then makes `cwd` the app root.
 */
export function findAppRoot(cwd: string): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (isDirectory(join(dir, SVC_DIR))) return dir
    if (dirname(dir) === dir) return undefined
  }
}

/** Where everything of one project lives (ARCHITECTURE.md, "Local project layout"). */
export type ProjectPaths = {
  readonly appRoot: string
  readonly name: string
  readonly dir: string
  /** The root manifest: `name`, `version`, `imports`. */
  readonly rootManifest: string
  readonly settingsDir: string
  readonly clientConfig: string
  readonly manifest: string
  /** Derived: the bundle's entry, and what esbuild makes of it. */
  readonly worker: string
  readonly bundle: string
  /** Derived: the stack server's entry, and the self-contained `server.js` a publish uploads. */
  readonly server: string
  readonly serverBundle: string
}

export function projectPaths(appRoot: string, name: string): ProjectPaths {
  const dir = join(appRoot, SVC_DIR, name)
  const settingsDir = join(dir, '.settings')
  return {
    appRoot,
    name,
    dir,
    rootManifest: join(dir, 'deno.json'),
    settingsDir,
    clientConfig: join(settingsDir, 'client.json'),
    manifest: join(settingsDir, 'manifest.json'),
    worker: join(dir, 'worker.ts'),
    bundle: join(dir, 'bundle.js'),
    server: join(dir, 'server.ts'),
    serverBundle: join(dir, 'server.js'),
  }
}

/** The projects of an app root: folders of `.svc/` with a root manifest, in name order. */
export function listProjects(appRoot: string): string[] {
  const svc = join(appRoot, SVC_DIR)
  if (!isDirectory(svc)) return []
  return readdirSync(svc, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(svc, entry.name, 'deno.json')))
    .map((entry) => entry.name)
    .sort()
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}
