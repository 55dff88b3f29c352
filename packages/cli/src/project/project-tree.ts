import { readdirSync, realpathSync, statSync, type Stats } from 'node:fs'
import { join } from 'node:path'

/** Folders listed but not walked: they hold no generator, and may hold thousands of files. */
const NOT_WALKED: ReadonlySet<string> = new Set(['node_modules', '.git'])

/**
 * The paths of a project folder relative to it, with `/`: every file, and every folder as
 * `name/`, so an empty `gen-*` folder counts too. Symbolic links are followed (a clone may be
 * a link to a generator being written elsewhere), each folder once.
 */
export function projectTree(projectDir: string): string[] {
  const paths: string[] = []
  const seen = new Set<string>()
  const walk = (dir: string, prefix: string) => {
    const real = realpathSync(dir)
    if (seen.has(real)) return
    seen.add(real)
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const absolute = join(dir, entry.name)
      const path = `${prefix}${entry.name}`
      const kind = entry.isSymbolicLink() ? statOf(absolute) : entry
      if (kind?.isDirectory()) {
        paths.push(`${path}/`)
        if (!NOT_WALKED.has(entry.name)) walk(absolute, `${path}/`)
      } else if (kind?.isFile()) paths.push(path)
    }
  }
  walk(projectDir, '')
  return paths
}

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path)
  } catch {
    return undefined
  }
}
