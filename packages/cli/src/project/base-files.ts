import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import ignore from 'ignore'
import { listProjects, projectPaths, SVC_DIR } from './app-root.js'
import { BINARY_EXTENSIONS, type SourceFile } from './source-files.js'

/**
 * What `svc push --base-files` never sends, before `.svcignore`: version control, dependencies,
 * build output, secrets, logs. Gitignore syntax.
 */
export const BUILT_IN_IGNORES: readonly string[] = [
  '.git/',
  '.hg/',
  '.svn/',
  'node_modules/',
  'dist/',
  'build/',
  'coverage/',
  '.next/',
  '.cache/',
  '.turbo/',
  '.env',
  '.env.*',
  '*.log',
  '.DS_Store',
  'Thumbs.db',
]

/**
 * The base files of an app root: its hand-authored tree, without the built-in ignores, the
 * patterns of its `.svcignore` (gitignore syntax), `.svc/`, the files any project's last
 * generate wrote (recorded in its manifest), and binary assets; in path order.
 */
export function collectBaseFiles(appRoot: string): SourceFile[] {
  const rules = ignore().add([...BUILT_IN_IGNORES])
  try {
    rules.add(readFileSync(join(appRoot, '.svcignore'), 'utf8'))
  } catch {
    // No .svcignore: the built-in rules alone.
  }
  const generated = generatedFiles(appRoot)
  const files: SourceFile[] = []
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const absolute = join(dir, entry.name)
      const path = relative(appRoot, absolute).split(sep).join('/')
      if (path === SVC_DIR) continue
      if (entry.isDirectory()) {
        if (!rules.ignores(`${path}/`)) walk(absolute)
      } else if (entry.isFile()) {
        if (rules.ignores(path) || generated.has(path)) continue
        const extension = entry.name.includes('.') ? entry.name.split('.').pop()!.toLowerCase() : ''
        if (BINARY_EXTENSIONS.has(extension)) continue
        files.push({ path, absolute, bytes: statSync(absolute).size })
      }
    }
  }
  walk(appRoot)
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
}

/** Every file the projects' last runs generated, relative to the app root. */
function generatedFiles(appRoot: string): Set<string> {
  const paths = new Set<string>()
  for (const name of listProjects(appRoot)) {
    try {
      const manifest = JSON.parse(readFileSync(projectPaths(appRoot, name).manifest, 'utf8')) as {
        files?: Record<string, { destinationPath?: unknown }>
      }
      for (const file of Object.values(manifest.files ?? {}))
        if (typeof file.destinationPath === 'string')
          paths.add(file.destinationPath.split(sep).join('/'))
    } catch {
      // A project never generated has no files to leave out.
    }
  }
  return paths
}
