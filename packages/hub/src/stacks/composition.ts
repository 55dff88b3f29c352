import { reconcileComposition, type CompositionProblem as FormatProblem } from '@svc/project-format'

/** How a stack version gets each `gen-*` generator its root manifest imports. */
export type GeneratorSource =
  | { readonly name: string; readonly kind: 'imported'; readonly specifier: string }
  | { readonly name: string; readonly kind: 'cloned'; readonly path: string }

export type Composition = readonly GeneratorSource[]

export type CompositionProblem = { readonly generator: string; readonly problem: string }

/**
 * The composition of an upload as the stack version records it, sorted by name, and every way
 * the manifest's `gen-*` imports and the uploaded paths disagree, worded for the API.
 */
export function composeUpload(
  imports: Readonly<Record<string, string>>,
  paths: Iterable<string>,
): { composition: Composition; problems: CompositionProblem[] } {
  const { generators, problems } = reconcileComposition(imports, paths)
  const composition = generators
    .map((g): GeneratorSource =>
      g.kind === 'imported'
        ? { name: g.name, kind: 'imported', specifier: g.specifier }
        : { name: g.name, kind: 'cloned', path: g.path },
    )
    .sort((a, b) => a.name.localeCompare(b.name))
  return {
    composition,
    problems: problems.map((p) => ({ generator: p.generator, problem: describe(p) })),
  }
}

function describe(problem: FormatProblem): string {
  const name = problem.generator
  switch (problem.kind) {
    case 'duplicate':
      return `'${name}' is imported more than once`
    case 'invalid-specifier':
      if (problem.problem === 'unsafe path')
        return `'${name}' points at an unsafe path '${problem.specifier}'`
      if (problem.problem === 'not in a folder')
        return `'${name}' is cloned at '${problem.specifier}', which is not inside a folder of the upload`
      return `'${name}' is neither a jsr:@scope/name specifier nor a ./path in the upload: '${problem.specifier}'`
    case 'invalid-range':
      return `'${name}' is imported with an invalid version range '${problem.range}' (${problem.specifier})`
    case 'imported-and-cloned':
      return `'${name}' is imported (${problem.specifier}) and also cloned in the folder '${problem.folder}/'`
    case 'missing-path':
      return `'${name}' is cloned at '${problem.specifier}', which is not in the upload`
    case 'shared-folder':
      return `'${name}' and '${problem.other.name}' both use the folder '${problem.folder}/'`
    case 'unclaimed-folder':
      return `the folder '${problem.folder}/' is a generator that no import in the root manifest names`
  }
}
