import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** A generator shipped with the CLI: `jsr:@svc/gen-*` specifiers resolve to it. */
export type OfficialGenerator = {
  /** The import key in the root manifest, and the name users type: `gen-typescript`. */
  readonly key: string
  /** The generator id, first key of its enrichments: `@svc/gen-typescript`. */
  readonly id: string
  readonly summary: string
  /** Keys of the official generators whose output this one's imports: installed with it. */
  readonly requires?: readonly string[]
}

export const OFFICIAL_GENERATORS: readonly OfficialGenerator[] = [
  { key: 'gen-typescript', id: '@svc/gen-typescript', summary: 'a TypeScript type per model' },
  { key: 'gen-zod', id: '@svc/gen-zod', summary: 'a zod 4 schema per model' },
  {
    key: 'gen-fetch-client',
    id: '@svc/gen-fetch-client',
    summary: 'a typed fetch function per OpenAPI operation',
  },
  {
    key: 'gen-tanstack-query',
    id: '@svc/gen-tanstack-query',
    summary: 'TanStack Query options per OpenAPI operation, over gen-fetch-client',
    // queries.ts imports the functions of client.ts, which only gen-fetch-client writes.
    requires: ['gen-fetch-client'],
  },
  {
    key: 'gen-graphql-client',
    id: '@svc/gen-graphql-client',
    summary: 'a typed document and fetch function per GraphQL root field',
  },
]

/**
 * The official generator a user named: `gen-zod`, `zod`, `@svc/gen-zod`, or a
 * `jsr:@svc/gen-zod@^0.1.0` specifier.
 */
export function findOfficial(name: string): OfficialGenerator | undefined {
  const bare = name.replace(/^jsr:/, '').replace(/(?<=.)@[^/@]*$/, '')
  return OFFICIAL_GENERATORS.find(
    (generator) =>
      bare === generator.key || bare === generator.id || `gen-${bare}` === generator.key,
  )
}

/** Where an installed package's entry, source and version are. */
export type InstalledPackage = {
  /** The file esbuild bundles: the package's built `default` export. */
  readonly entry: string
  readonly root: string
  readonly version: string
}

/** Resolves a package the CLI depends on (an official generator, or the engine) from here. */
export function installedPackage(name: string): InstalledPackage {
  const entry = fileURLToPath(import.meta.resolve(name))
  for (let dir = dirname(entry); dirname(dir) !== dir; dir = dirname(dir)) {
    const manifest = readJson(join(dir, 'package.json'))
    if (manifest?.name === name && typeof manifest.version === 'string')
      return { entry, root: dir, version: manifest.version }
  }
  throw new Error(`Cannot find the package.json of ${name} above ${entry}`)
}

/** The jsr specifier `svc install` writes: the shipped version as a caret range. */
export function jsrSpecifierOf(id: string): string {
  return `jsr:${id}@^${installedPackage(id).version}`
}

function readJson(path: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>
  } catch {
    return undefined
  }
}
