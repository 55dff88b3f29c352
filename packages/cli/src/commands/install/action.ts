import { EXIT, RecipeError, type ExitCode } from '../../errors.js'
import type { Output } from '../../output.js'
import { openProject } from '../../project/open-project.js'
import {
  findOfficial,
  jsrSpecifierOf,
  OFFICIAL_GENERATORS,
} from '../../project/official-generators.js'
import { readRootManifest, writeRootManifest } from '../../project/root-manifest.js'

export type InstallFlags = { json?: boolean; project?: string; list?: boolean }

const RECIPE = {
  usage: 'svc install <generator…> [--project <project>] [--json]',
  example: 'svc install gen-typescript gen-zod --project demo',
}

/**
 * `svc install <gen…>`: imports official generators into a project's root manifest as `jsr:`
 * specifiers. One already imported is left as it is; one cloned is refused, since a generator
 * is never both.
 */
export function installAction(
  names: readonly string[],
  flags: InstallFlags,
  output: Output,
  cwd: string,
): ExitCode {
  if (flags.list) return list(flags, output)
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
  const paths = openProject(flags.project, cwd, RECIPE, { defaultToOnly: true })
  const manifest = readRootManifest(paths.rootManifest)
  const added: { key: string; specifier: string }[] = []
  const unchanged: string[] = []
  for (const generator of generators) {
    const current = manifest.imports[generator.key]
    if (current !== undefined && !current.startsWith('jsr:'))
      throw new RecipeError({
        ...RECIPE,
        problem: `'${generator.key}' is cloned in ${paths.name} (${current}); a generator is never both imported and cloned. Remove the clone first.`,
        discover: `svc remove ${generator.key} --project ${paths.name} --force`,
      })
    if (current !== undefined) unchanged.push(generator.key)
    else {
      const specifier = jsrSpecifierOf(generator.id)
      manifest.imports[generator.key] = specifier
      added.push({ key: generator.key, specifier })
    }
  }
  writeRootManifest(paths.rootManifest, manifest)
  if (flags.json) output.json({ type: 'installed', projectName: paths.name, added, unchanged })
  else {
    for (const { key, specifier } of added)
      output.result(`Installed ${key} (${specifier}) in ${paths.name}`)
    for (const key of unchanged) output.result(`${key} is already installed in ${paths.name}`)
  }
  return EXIT.ok
}

function list(flags: InstallFlags, output: Output): ExitCode {
  const generators = OFFICIAL_GENERATORS.map((generator) => ({
    ...generator,
    specifier: jsrSpecifierOf(generator.id),
  }))
  if (flags.json) output.json({ type: 'generators', generators })
  else for (const g of generators) output.result(`${g.key.padEnd(20)} ${g.summary}`)
  return EXIT.ok
}
