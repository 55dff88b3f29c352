import { existsSync, readdirSync } from 'node:fs'
import { isAbsolute, join, normalize } from 'node:path'
import semver from 'semver'
import { z } from 'zod'
import { parseJsrSpecifier } from './official-generators.js'
import { readJsonFile, writeJsonFile } from './json-file.js'

/** The import key that pins the engine every generator of the project runs on. */
export const ENGINE_IMPORT = '@svc/engine'

/** `@account/slug`: the stack a publish goes to (SPEC §2, "Root manifest"). */
export const SCOPED_NAME =
  /^@[a-z0-9](?:[a-z0-9-]{0,37}[a-z0-9])?\/[a-z0-9](?:[a-z0-9-]{0,37}[a-z0-9])?$/

const rootManifestSchema = z.looseObject({
  name: z.string().regex(SCOPED_NAME, 'must be scoped: @account/slug'),
  version: z.string().refine((value) => semver.valid(value) === value, 'must be a semver version'),
  imports: z.record(z.string(), z.string().min(1)),
})

/** A project's `deno.json`: keys other than these three are kept as they are. */
export type RootManifest = z.infer<typeof rootManifestSchema>

export function readRootManifest(path: string): RootManifest {
  return readJsonFile(path, rootManifestSchema)
}

/**
 * The root manifest of a publish given its version (SPEC 4.9: `--version`, or the manifest's):
 * the manifest's own `version` may then be missing, and the given one is used.
 */
export function readRootManifestAt(path: string, version: string): RootManifest {
  const unversioned = rootManifestSchema.extend({ version: z.string().optional() })
  return { ...readJsonFile(path, unversioned), version }
}

export function writeRootManifest(path: string, manifest: RootManifest): void {
  writeJsonFile(path, manifest)
}

/** One `gen-*` import: from the official set (`jsr:`), or a folder of the project (cloned). */
export type GeneratorImport =
  | {
      readonly key: string
      readonly kind: 'imported'
      readonly specifier: string
      readonly id: string
      readonly range: string
    }
  | {
      readonly key: string
      readonly kind: 'cloned'
      readonly specifier: string
      readonly path: string
      /** The folder of the project that holds it: the first segment of the path. */
      readonly folder: string
    }

/** The generators a project is made of, and what is inconsistent about them. */
export type Composition = {
  readonly generators: readonly GeneratorImport[]
  readonly problems: readonly string[]
}

/**
 * Reads the `gen-*` imports (SPEC §2): a `jsr:` value means imported, a relative path cloned.
 * Imported ⇒ no `gen-X/` folder beside it; cloned ⇒ the path exists inside the project; every
 * `gen-*` folder is referenced by exactly one import.
 */
export function compositionOf(manifest: RootManifest, projectDir: string): Composition {
  const generators: GeneratorImport[] = []
  const problems: string[] = []
  const referenced = new Map<string, string>()
  for (const [key, specifier] of Object.entries(manifest.imports)) {
    if (!key.startsWith('gen-')) continue
    const jsr = parseJsrSpecifier(specifier)
    if (jsr) {
      if (semver.validRange(jsr.range) === null)
        problems.push(`imports['${key}'] has an invalid version range '${jsr.range}'`)
      if (existsSync(join(projectDir, key)))
        problems.push(
          `'${key}' is imported (${specifier}) and also has a cloned folder '${key}/': remove one`,
        )
      generators.push({ key, kind: 'imported', specifier, ...jsr })
      continue
    }
    if (
      !specifier.startsWith('./') ||
      isAbsolute(specifier) ||
      normalize(specifier).startsWith('..')
    ) {
      problems.push(
        `imports['${key}'] must be a jsr:@scope/name specifier or a ./path inside the project, not '${specifier}'`,
      )
      continue
    }
    const path = join(projectDir, specifier)
    if (!existsSync(path)) problems.push(`'${key}' is cloned at ${specifier}, which does not exist`)
    const segments = normalize(specifier).split(/[\\/]/)
    const folder = segments[0]!
    if (segments.length < 2) {
      problems.push(
        `imports['${key}'] must point into a folder of the project, such as ./${key}/mod.ts`,
      )
      continue
    }
    const other = referenced.get(folder)
    if (other !== undefined)
      problems.push(`the folder '${folder}/' is referenced by both '${other}' and '${key}'`)
    referenced.set(folder, key)
    generators.push({ key, kind: 'cloned', specifier, path, folder })
  }
  for (const entry of readdirSync(projectDir, { withFileTypes: true }))
    if (entry.isDirectory() && entry.name.startsWith('gen-') && !referenced.has(entry.name))
      if (!generators.some((g) => g.kind === 'imported' && g.key === entry.name))
        problems.push(`the folder '${entry.name}/' is not referenced by any import`)
  return { generators, problems }
}
