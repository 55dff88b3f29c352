import {
  cpSync,
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { join, relative } from 'node:path'
import type { CommandIO } from '../../command-io.js'
import { RecipeError } from '../../errors.js'
import { openProject } from '../../project/open-project.js'
import { findOfficial, installedPackage } from '../../project/official-generators.js'
import { readRootManifest, writeRootManifest } from '../../project/root-manifest.js'

export type CloneOptions = {
  readonly project?: string | undefined
  /** The official generator to clone, by any of its names. */
  readonly generator?: string | undefined
}

export type CloneResult = {
  readonly type: 'cloned'
  readonly projectName: string
  readonly generator: string
  /** The generator's new folder, absolute. */
  readonly path: string
  /** Every file of that folder, relative to the project, sorted. */
  readonly files: readonly string[]
  /** The official package it was copied from. */
  readonly from: string
}

const RECIPE = {
  usage: 'svc clone [project] -g <generator> [--json]',
  example: 'svc clone demo -g gen-zod',
}

/**
 * `svc clone <project> -g <gen>`: copies an official generator's source into the project as
 * `gen-X/mod.ts` and its modules, and points the import at it instead of the `jsr:` specifier.
 * From then on the project owns that code: rename what it defines, change what it emits.
 */
export async function clone(options: CloneOptions, io: CommandIO): Promise<CloneResult> {
  const { cwd } = io
  const generator = options.generator === undefined ? undefined : findOfficial(options.generator)
  if (generator === undefined)
    throw new RecipeError({
      ...RECIPE,
      problem:
        options.generator === undefined
          ? 'svc clone needs the generator to clone (-g).'
          : `'${options.generator}' is not a generator svc ships.`,
      discover: 'svc install --list',
    })
  const paths = openProject(options.project, cwd, RECIPE)
  const manifest = readRootManifest(paths.rootManifest)
  const folder = join(paths.dir, generator.key)
  const current = manifest.imports[generator.key]
  if (existsSync(folder) || (current !== undefined && !current.startsWith('jsr:')))
    throw new RecipeError({
      ...RECIPE,
      problem: `'${generator.key}' is already cloned in ${paths.name} (${relative(cwd, folder)}).`,
      discover: `svc remove ${generator.key} --project ${paths.name} --force (then clone again)`,
    })
  const source = join(installedPackage(generator.id).root, 'src')
  // Staged and renamed: a failed copy leaves no half-cloned folder behind.
  const staging = `${folder}.svc-tmp`
  rmSync(staging, { recursive: true, force: true })
  try {
    cpSync(source, staging, {
      recursive: true,
      filter: (path) => !/(?:\.test\.ts|[\\/]test-support\.ts)$/.test(path),
    })
    renameSync(join(staging, 'index.ts'), join(staging, 'mod.ts'))
    for (const file of readdirSync(staging, { recursive: true, withFileTypes: true })) {
      if (!file.isFile() || !file.name.endsWith('.ts')) continue
      const path = join(file.parentPath, file.name)
      const text = readFileSync(path, 'utf8')
      const edited = text.replace(/(['"])\.\/index\.js\1/g, '$1./mod.js$1')
      if (edited !== text) writeFileSync(path, edited)
    }
    renameSync(staging, folder)
  } catch (error) {
    rmSync(staging, { recursive: true, force: true })
    throw error
  }
  manifest.imports[generator.key] = `./${generator.key}/mod.ts`
  writeRootManifest(paths.rootManifest, manifest)
  const files = readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(paths.dir, join(entry.parentPath, entry.name)))
    .sort()
  return {
    type: 'cloned',
    projectName: paths.name,
    generator: generator.key,
    path: folder,
    files,
    from: generator.id,
  }
}
