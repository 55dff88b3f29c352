import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import type { GeneratorImport } from '../project/root-manifest.js'

/** A digest of a project's cloned generator sources: the bundle is stale when it changes. */
export function clonedDigest(projectDir: string, generators: readonly GeneratorImport[]): string {
  const hash = createHash('sha256')
  for (const generator of generators) {
    if (generator.kind !== 'cloned') continue
    const folder = join(projectDir, generator.folder)
    const files = readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name))
      .sort()
    for (const file of files)
      hash.update(relative(projectDir, file)).update('\0').update(readFileSync(file)).update('\0')
  }
  return hash.digest('hex')
}
