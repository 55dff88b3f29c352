import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const PACKAGES = fileURLToPath(new URL('../../../', import.meta.url))

/** What `tsc -b` keeps in `dist/.tsbuildinfo`: each input file and the hash of its text. */
type BuildInfo = {
  readonly fileNames: readonly string[]
  readonly fileInfos: readonly (string | { readonly version: string })[]
}

/**
 * The source files of every package (`packages/<name>/src`, `packages/generators/<name>/src`)
 * whose text differs from the text their last build compiled, by the SHA-256 `tsc -b` records:
 * a file saved again unchanged is not stale, and `tsc -b` leaves its output as it is.
 */
export function staleBuildOutputs(): string[] {
  const stale: string[] = []
  for (const root of packageRoots()) {
    const dist = join(root, 'dist')
    const info = JSON.parse(readFileSync(join(dist, '.tsbuildinfo'), 'utf8')) as BuildInfo
    info.fileNames.forEach((name, index) => {
      if (!name.startsWith('../src/')) return
      const file = join(dist, name)
      const entry = info.fileInfos[index]
      const built = typeof entry === 'string' ? entry : entry?.version
      const now = existsSync(file)
        ? createHash('sha256').update(readFileSync(file, 'utf8')).digest('hex')
        : undefined
      if (now !== built) stale.push(relative(PACKAGES, file))
    })
  }
  return stale
}

let checked = false

/**
 * Throws when the hub or a package it runs has been edited since the last build: end-to-end
 * tests run `packages/hub/dist`, and would otherwise test the old code.
 */
export function assertBuildFresh(): void {
  if (checked) return
  const stale = staleBuildOutputs()
  if (stale.length > 0) {
    const shown = stale.slice(0, 5).join(', ') + (stale.length > 5 ? ', …' : '')
    throw new Error(
      `the build is older than the sources (${shown}): run \`npx tsc -b\` before the hub's end-to-end tests`,
    )
  }
  checked = true
}

/** The packages built into a `dist`; one never built fails, like one built from old sources. */
function packageRoots(): string[] {
  const roots: string[] = []
  for (const parent of [PACKAGES, join(PACKAGES, 'generators')]) {
    for (const name of readdirSync(parent)) {
      const root = join(parent, name)
      if (!existsSync(join(root, 'tsconfig.json')) || !existsSync(join(root, 'src'))) continue
      if (!existsSync(join(root, 'dist', '.tsbuildinfo'))) {
        throw new Error(
          `${relative(PACKAGES, root)} is not built: run \`npx tsc -b\` before the hub's end-to-end tests`,
        )
      }
      roots.push(root)
    }
  }
  return roots
}
