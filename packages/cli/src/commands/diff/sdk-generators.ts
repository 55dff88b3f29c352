import { RecipeError, type Recipe } from '../../errors.js'
import { findOfficial } from '../../project/official-generators.js'
import { openProject } from '../../project/open-project.js'
import { compositionOf, readRootManifest } from '../../project/root-manifest.js'

/** Which generators' code `--profile sdk` judges: named, or those of a project. */
export type SdkGeneratorChoice = {
  /** `--generators`: names as users type them (`gen-zod`, `zod`, `@svc/gen-zod`, other ids). */
  readonly generators?: readonly string[] | undefined
  /** `--project`: the generators its root manifest imports. */
  readonly project?: string | undefined
}

/**
 * The generator ids the engine's SDK rules are judged for, or undefined for every rule. An
 * official generator is named by its id; any other name stays as given (the engine counts it as
 * a generator outside svc). A cloned official generator keeps the names of the one it came from.
 */
export function sdkGeneratorIds(
  choice: SdkGeneratorChoice,
  cwd: string,
  recipe: Recipe,
): readonly string[] | undefined {
  if (choice.generators?.length && choice.project !== undefined)
    throw new RecipeError({
      ...recipe,
      problem: '--generators and --project both name the generators to judge for: give one.',
    })
  if (choice.generators?.length) return choice.generators.map(idOf)
  if (choice.project === undefined) return undefined
  const paths = openProject(choice.project, cwd, recipe)
  const { generators } = compositionOf(readRootManifest(paths.rootManifest), paths.dir)
  return generators.map((generator) =>
    idOf(generator.kind === 'imported' ? generator.id : generator.folder),
  )
}

function idOf(name: string): string {
  return findOfficial(name)?.id ?? name
}
