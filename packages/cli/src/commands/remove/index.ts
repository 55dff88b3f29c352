import { existsSync, rmSync } from 'node:fs'
import { join, relative } from 'node:path'
import { classifyGeneratorSpecifier } from '@svc/project-format'
import type { CommandIO } from '../../command-io.js'
import { RecipeError } from '../../errors.js'
import { openProject } from '../../project/open-project.js'
import { findOfficial } from '../../project/official-generators.js'
import { readRootManifest, writeRootManifest } from '../../project/root-manifest.js'

export type RemoveOptions = {
  readonly generators: readonly string[]
  readonly project?: string | undefined
  /** Also delete a cloned generator's folder. */
  readonly force?: boolean | undefined
}

export type RemoveResult = {
  readonly type: 'removed'
  readonly projectName: string
  readonly removed: readonly string[]
  readonly deletedFolders: readonly string[]
  /** Generator key → the folder deleted with it, for a cloned one. */
  readonly folderOf: ReadonlyMap<string, string>
}

const RECIPE = {
  usage: 'svc remove <generator…> [--project <project>] [--force] [--json]',
  example: 'svc remove gen-zod --project demo',
}

/**
 * `svc remove <gen…>`: takes generators out of a project's root manifest. A cloned one holds
 * the project's own code, so its folder is deleted only with `--force`.
 */
export async function remove(options: RemoveOptions, io: CommandIO): Promise<RemoveResult> {
  const names = options.generators
  const { cwd } = io
  if (names.length === 0)
    throw new RecipeError({
      ...RECIPE,
      problem: 'svc remove needs at least one generator.',
      discover: 'cat .svc/<project>/deno.json (its gen-* imports)',
    })
  const paths = openProject(options.project, cwd, RECIPE)
  const manifest = readRootManifest(paths.rootManifest)
  const keys = names.map((name) => {
    const key = findOfficial(name)?.key ?? name
    if (!key.startsWith('gen-') || manifest.imports[key] === undefined)
      throw new RecipeError({
        ...RECIPE,
        problem: `'${name}' is not a generator of ${paths.name}.`,
        discover: `cat ${relative(cwd, paths.rootManifest)} (its gen-* imports)`,
      })
    return key
  })
  // A cloned import's folder is the first segment of its path (`./gen-zod/mod.ts` → gen-zod).
  const folders = new Map<string, string>()
  for (const key of keys) {
    const source = classifyGeneratorSpecifier(manifest.imports[key]!)
    const folder = source.kind === 'cloned' ? source.folder : undefined
    if (folder && existsSync(join(paths.dir, folder))) folders.set(key, folder)
  }
  const cloned = [...folders.keys()]
  if (cloned.length > 0 && !options.force)
    throw new RecipeError({
      ...RECIPE,
      problem: `${cloned.join(', ')} ${cloned.length === 1 ? 'is' : 'are'} cloned in ${paths.name}: removing deletes ${cloned.length === 1 ? 'its folder' : 'their folders'}, so it needs --force.`,
      discover: `ls ${relative(cwd, paths.dir)}`,
    })
  for (const key of keys) delete manifest.imports[key]
  writeRootManifest(paths.rootManifest, manifest)
  for (const folder of folders.values())
    rmSync(join(paths.dir, folder), { recursive: true, force: true })
  return {
    type: 'removed',
    projectName: paths.name,
    removed: keys,
    deletedFolders: [...folders.values()],
    folderOf: folders,
  }
}
