import semver from 'semver'
import {
  classifyGeneratorSpecifier,
  type GeneratorSpecifier,
  type SpecifierProblem,
} from './generator-specifier.js'

/** The prefix of the import keys that name generators. */
export const GENERATOR_PREFIX = 'gen-'

/** One `gen-*` import that names a generator, imported or cloned. */
export type Generator = Exclude<GeneratorSpecifier, { kind: 'invalid' }> & {
  /** The import key as written: `gen-zod`, or `gen-zod/`. */
  readonly key: string
  /** The key without a trailing `/`: `gen-zod`. */
  readonly name: string
}

/** What is inconsistent about a project's generators; `generator` is the name it concerns. */
export type CompositionProblem = { readonly generator: string; readonly key: string } & (
  | { readonly kind: 'duplicate' }
  | {
      readonly kind: 'invalid-specifier'
      readonly specifier: string
      readonly problem: SpecifierProblem
    }
  | { readonly kind: 'invalid-range'; readonly specifier: string; readonly range: string }
  | { readonly kind: 'imported-and-cloned'; readonly specifier: string; readonly folder: string }
  | { readonly kind: 'missing-path'; readonly specifier: string }
  | { readonly kind: 'shared-folder'; readonly folder: string; readonly other: Generator }
  /** A top-level `gen-*` folder that no import names; `key` is the folder. */
  | { readonly kind: 'unclaimed-folder'; readonly folder: string }
)

export type Composition = {
  /** In the order of the manifest's keys: the order the generators run in. */
  readonly generators: readonly Generator[]
  readonly problems: readonly CompositionProblem[]
}

/**
 * Reconciles the `gen-*` imports with the files of the project, given as paths relative to it
 * with `/` (a path ending in `/` names a folder, empty or not). An imported generator has no
 * `gen-<name>/` folder; a cloned one points at a file that exists (or, ending in `/`, at a folder
 * with a file under it: an upload has no empty folders);
 * each top-level folder holds one clone at most; and every top-level `gen-*` folder is named by
 * an import.
 *
 * @example
 * reconcileComposition({ 'gen-zod': './gen-zod/mod.ts' }, ['deno.json', 'gen-zod/mod.ts'])
 * // { generators: [{ kind: 'cloned', key: 'gen-zod', name: 'gen-zod', path: 'gen-zod/mod.ts', … }], problems: [] }
 */
export function reconcileComposition(
  imports: Readonly<Record<string, string>>,
  paths: Iterable<string>,
): Composition {
  const files = new Set(paths)
  const folders = new Set<string>()
  for (const path of files) {
    const slash = path.indexOf('/')
    if (slash > 0 && path.startsWith(GENERATOR_PREFIX)) folders.add(path.slice(0, slash))
  }
  const generators: Generator[] = []
  const problems: CompositionProblem[] = []
  const claimed = new Map<string, Generator>()
  for (const [key, specifier] of Object.entries(imports)) {
    if (!key.startsWith(GENERATOR_PREFIX)) continue
    const generator = key.replace(/\/+$/, '')
    const at = { generator, key }
    if (generators.some((g) => g.name === generator)) {
      problems.push({ ...at, kind: 'duplicate' })
      continue
    }
    const source = classifyGeneratorSpecifier(specifier)
    if (source.kind === 'invalid') {
      problems.push({ ...at, kind: 'invalid-specifier', specifier, problem: source.problem })
      continue
    }
    const entry: Generator = { ...source, key, name: generator }
    generators.push(entry)
    if (source.kind === 'imported') {
      if (semver.validRange(source.range) === null)
        problems.push({ ...at, kind: 'invalid-range', specifier, range: source.range })
      if (folders.has(generator)) {
        problems.push({ ...at, kind: 'imported-and-cloned', specifier, folder: generator })
        claimed.set(generator, entry)
      }
      continue
    }
    const exists = source.directory
      ? [...files].some((path) => path.startsWith(`${source.path}/`) && !path.endsWith('/'))
      : files.has(source.path)
    if (!exists) problems.push({ ...at, kind: 'missing-path', specifier })
    const other = claimed.get(source.folder)
    if (other !== undefined)
      problems.push({ ...at, kind: 'shared-folder', folder: source.folder, other })
    else claimed.set(source.folder, entry)
  }
  for (const folder of [...folders].sort())
    if (!claimed.has(folder))
      problems.push({ generator: folder, key: folder, kind: 'unclaimed-folder', folder })
  return { generators, problems }
}
