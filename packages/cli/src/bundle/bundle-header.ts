import { closeSync, openSync, readSync } from 'node:fs'
import type { GeneratorImport } from '../project/root-manifest.js'

const PREFIX = '// svc-bundle '

/** What a bundle was built for: the first line of `bundle.js`. */
export type BundleHeader = {
  /** The `gen-*` imports of the root manifest at bundle time: key → specifier. */
  readonly generators: Readonly<Record<string, string>>
  /** The engine version bundled in. */
  readonly engine: string
  /** SHA-256 of the cloned generators' files at bundle time. */
  readonly cloned: string
}

export function headerLine(
  generators: readonly GeneratorImport[],
  engine: string,
  cloned: string,
): string {
  const header: BundleHeader = {
    generators: Object.fromEntries(generators.map((g) => [g.key, g.specifier])),
    engine,
    cloned,
  }
  return `${PREFIX}${JSON.stringify(header)}`
}

/** The header of a bundle on disk; undefined when there is no bundle or no header. */
export function readBundleHeader(path: string): BundleHeader | undefined {
  let fd: number
  try {
    fd = openSync(path, 'r')
  } catch {
    return undefined
  }
  try {
    const buffer = Buffer.alloc(64 * 1024)
    const length = readSync(fd, buffer, 0, buffer.length, 0)
    const line = buffer.subarray(0, length).toString('utf8').split('\n', 1)[0]!
    if (!line.startsWith(PREFIX)) return undefined
    const value = JSON.parse(line.slice(PREFIX.length)) as BundleHeader
    return typeof value.generators === 'object' &&
      typeof value.engine === 'string' &&
      typeof value.cloned === 'string'
      ? value
      : undefined
  } catch {
    return undefined
  } finally {
    closeSync(fd)
  }
}

/**
 * How a bundle differs from the project now: generators to add or remove (SPEC §7.6), or the
 * same set with edited cloned sources, or another engine version.
 */
export type Staleness = {
  readonly add: readonly string[]
  readonly remove: readonly string[]
  /** Keys in both whose specifier changed: `gen-zod (jsr:@svc/gen-zod@^0.1.0 → ./gen-zod/mod.ts)`. */
  readonly change: readonly string[]
  readonly sourcesChanged: boolean
  readonly engineChanged: boolean
}

export function staleness(
  header: BundleHeader,
  now: { generators: readonly GeneratorImport[]; engine: string; cloned: string },
): Staleness | undefined {
  const current = new Map(now.generators.map((g) => [g.key, g.specifier]))
  const built = new Map(Object.entries(header.generators))
  const add = [...current.keys()].filter((key) => !built.has(key))
  const remove = [...built.keys()].filter((key) => !current.has(key))
  const change = [...current]
    .filter(([key, value]) => built.has(key) && built.get(key) !== value)
    .map(([key, value]) => `${key} (${built.get(key)} → ${value})`)
  const sourcesChanged = header.cloned !== now.cloned
  const engineChanged = header.engine !== now.engine
  return add.length + remove.length + change.length === 0 && !sourcesChanged && !engineChanged
    ? undefined
    : { add, remove, change, sourcesChanged, engineChanged }
}

/** `bundle.js is out of sync with deno.json — add: gen-zod; remove: gen-fetch-client`. */
export function outOfSyncMessage(stale: Staleness): string {
  const parts = [
    stale.add.length > 0 ? `add: ${stale.add.join(', ')}` : '',
    stale.remove.length > 0 ? `remove: ${stale.remove.join(', ')}` : '',
    stale.change.length > 0 ? `change: ${stale.change.join(', ')}` : '',
    stale.sourcesChanged && stale.add.length + stale.remove.length + stale.change.length === 0
      ? 'cloned generator sources changed'
      : '',
    stale.engineChanged ? 'built with another engine version' : '',
  ].filter((part) => part !== '')
  return `bundle.js is out of sync with deno.json — ${parts.join('; ')}`
}
