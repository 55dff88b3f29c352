import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const PACKAGES = fileURLToPath(new URL('../../../', import.meta.url))

/** Sources `tsc -b` leaves out of `dist` (tests, test helpers, declarations). */
const NOT_BUILT = /(\.test|\.case|\.test-d|\.d)\.tsx?$/

/**
 * The source files of every package (`packages/<name>/src`, `packages/generators/<name>/src`)
 * edited since their build output in its `dist`. A file with no output is left to the build
 * (tsconfig excludes some): a new one reaches `dist` only through a file that imports it.
 */
export function staleBuildOutputs(): string[] {
  const stale: string[] = []
  for (const root of packageRoots()) {
    const src = join(root, 'src')
    for (const file of sourceFiles(src)) {
      const built = join(root, 'dist', relative(src, file).replace(/\.tsx?$/, '.js'))
      if (existsSync(built) && statSync(built).mtimeMs < statSync(file).mtimeMs) {
        stale.push(relative(PACKAGES, file))
      }
    }
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

function packageRoots(): string[] {
  const roots: string[] = []
  for (const parent of [PACKAGES, join(PACKAGES, 'generators')]) {
    for (const name of readdirSync(parent)) {
      const root = join(parent, name)
      if (existsSync(join(root, 'src')) && existsSync(join(root, 'tsconfig.json'))) roots.push(root)
    }
  }
  return roots
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !NOT_BUILT.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .filter((file) => !file.includes('/test-support/'))
}
