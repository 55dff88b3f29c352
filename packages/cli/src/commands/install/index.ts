import type { CommandIO } from '../../command-io.js'
import { RecipeError } from '../../errors.js'
import { openProject } from '../../project/open-project.js'
import {
  findOfficial,
  jsrSpecifierOf,
  OFFICIAL_GENERATORS,
  type OfficialGenerator,
} from '../../project/official-generators.js'
import { readRootManifest, writeRootManifest } from '../../project/root-manifest.js'

export type InstallOptions = {
  readonly generators: readonly string[]
  readonly project?: string | undefined
  /** List the generators svc ships instead of installing. */
  readonly list?: boolean | undefined
}

export type InstallResult =
  | {
      readonly type: 'installed'
      readonly projectName: string
      /** `requiredBy`: installed because that generator, named, builds on it. */
      readonly added: readonly {
        readonly key: string
        readonly specifier: string
        readonly requiredBy?: string
      }[]
      readonly unchanged: readonly string[]
    }
  | {
      readonly type: 'generators'
      readonly generators: readonly (OfficialGenerator & { readonly specifier: string })[]
    }

const RECIPE = {
  usage: 'svc install <generator…> [--project <project>] [--json]',
  example: 'svc install gen-typescript gen-zod --project demo',
}

/**
 * `svc install <gen…>`: imports official generators into a project's root manifest as `jsr:`
 * specifiers, each after the ones it builds on (`requires`: gen-tanstack-query's
 * gen-fetch-client). One already imported is left as it is; one named and cloned is refused,
 * since a generator is never both, while a clone of one only required stands in for it.
 */
export async function install(options: InstallOptions, io: CommandIO): Promise<InstallResult> {
  if (options.list) return list()
  const names = options.generators
  if (names.length === 0)
    throw new RecipeError({
      ...RECIPE,
      problem: 'svc install needs at least one generator.',
      discover: 'svc install --list',
    })
  const generators = names.map((name) => {
    const found = findOfficial(name)
    if (!found)
      throw new RecipeError({
        ...RECIPE,
        problem: `'${name}' is not a generator svc ships.`,
        discover: 'svc install --list',
      })
    return found
  })
  const paths = openProject(options.project, io.cwd, RECIPE)
  const manifest = readRootManifest(paths.rootManifest)
  const added: { key: string; specifier: string; requiredBy?: string }[] = []
  const unchanged: string[] = []
  for (const { generator, requiredBy } of withRequired(generators)) {
    const current = manifest.imports[generator.key]
    // A clone of a generator only required stands in for it.
    if (current !== undefined && !current.startsWith('jsr:') && requiredBy === undefined)
      throw new RecipeError({
        ...RECIPE,
        problem: `'${generator.key}' is cloned in ${paths.name} (${current}); a generator is never both imported and cloned. Remove the clone first.`,
        discover: `svc remove ${generator.key} --project ${paths.name} --force`,
      })
    if (current !== undefined) unchanged.push(generator.key)
    else {
      const specifier = jsrSpecifierOf(generator.id)
      manifest.imports[generator.key] = specifier
      added.push({ key: generator.key, specifier, ...(requiredBy && { requiredBy }) })
    }
  }
  writeRootManifest(paths.rootManifest, manifest)
  return { type: 'installed', projectName: paths.name, added, unchanged }
}

/**
 * The generators named, each preceded by those it requires that are not named themselves, once
 * each, in the order named.
 */
function withRequired(
  named: readonly OfficialGenerator[],
): { generator: OfficialGenerator; requiredBy?: string }[] {
  const keys = new Set(named.map((generator) => generator.key))
  const seen = new Set<string>()
  const ordered: { generator: OfficialGenerator; requiredBy?: string }[] = []
  for (const generator of named) {
    for (const key of generator.requires ?? []) {
      const required = findOfficial(key)
      if (!required) throw new Error(`${generator.key} requires ${key}, which svc does not ship`)
      if (keys.has(key) || seen.has(key)) continue
      seen.add(key)
      ordered.push({ generator: required, requiredBy: generator.key })
    }
    if (seen.has(generator.key)) continue
    seen.add(generator.key)
    ordered.push({ generator })
  }
  return ordered
}

function list(): InstallResult {
  const generators = OFFICIAL_GENERATORS.map((generator) => ({
    ...generator,
    specifier: jsrSpecifierOf(generator.id),
  }))
  return { type: 'generators', generators }
}
