import {
  formatScopedName,
  readRootManifestText,
  reconcileComposition,
  type CompositionProblem,
  type Generator,
  type VersionRule,
} from '@svc/project-format'
import { readProjectFile, ProjectFileError, writeJsonFile } from './json-file.js'
import { projectTree } from './project-tree.js'

/** The import key that pins the engine every generator of the project runs on. */
export const ENGINE_IMPORT = '@svc/engine'

/** A project's `deno.json` as written: keys other than these three are kept as they are. */
export type RootManifest = {
  name: string
  version: string
  imports: Record<string, string>
  [key: string]: unknown
}

export function readRootManifest(path: string): RootManifest {
  return readAs(path, 'required', undefined)
}

/**
 * The root manifest of a publish given its version (`--version`, or the manifest's): the
 * manifest's own `version` may then be missing, and the given one is used.
 */
export function readRootManifestAt(path: string, version: string): RootManifest {
  return readAs(path, 'optional', version)
}

function readAs(path: string, rule: VersionRule, version: string | undefined): RootManifest {
  const reading = readRootManifestText(readProjectFile(path), { version: rule })
  if (!reading.ok) throw new ProjectFileError(path, reading.problems.join('; '))
  return {
    ...reading.document,
    name: formatScopedName(reading.manifest.name),
    version: version ?? reading.manifest.version!,
    imports: { ...reading.manifest.imports },
  }
}

export function writeRootManifest(path: string, manifest: RootManifest): void {
  writeJsonFile(path, manifest)
}

/** One `gen-*` import: from the official set (`jsr:`), or a folder of the project (cloned). */
export type GeneratorImport = Generator

/** The generators a project is made of, and what is inconsistent about them. */
export type Composition = {
  readonly generators: readonly GeneratorImport[]
  readonly problems: readonly string[]
}

/** The `gen-*` imports of the manifest, reconciled with the files of the project folder. */
export function compositionOf(manifest: RootManifest, projectDir: string): Composition {
  const { generators, problems } = reconcileComposition(manifest.imports, projectTree(projectDir))
  return { generators, problems: problems.map(describe) }
}

function describe(problem: CompositionProblem): string {
  const key = problem.key
  switch (problem.kind) {
    case 'duplicate':
      return `imports['${key}'] names the generator '${problem.generator}' a second time`
    case 'invalid-specifier':
      return problem.problem === 'not in a folder'
        ? `imports['${key}'] must point into a folder of the project, such as ./${problem.generator}/mod.ts`
        : `imports['${key}'] must be a jsr:@scope/name specifier or a ./path inside the project, not '${problem.specifier}'`
    case 'invalid-range':
      return `imports['${key}'] has an invalid version range '${problem.range}'`
    case 'imported-and-cloned':
      return `'${key}' is imported (${problem.specifier}) and also has a cloned folder '${problem.folder}/': remove one`
    case 'missing-path':
      return `'${key}' is cloned at ${problem.specifier}, which does not exist`
    case 'shared-folder':
      return `the folder '${problem.folder}/' is referenced by both '${problem.other.key}' and '${key}'`
    case 'unclaimed-folder':
      return `the folder '${problem.folder}/' is not referenced by any import`
  }
}
