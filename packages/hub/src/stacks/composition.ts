import { checkUploadPath } from '../uploads/safe-path.js'

/** How a stack version gets each `gen-*` generator its root manifest imports. */
export type GeneratorSource =
  | { readonly name: string; readonly kind: 'imported'; readonly specifier: string }
  | { readonly name: string; readonly kind: 'cloned'; readonly path: string }

export type Composition = readonly GeneratorSource[]

export type CompositionProblem = { readonly generator: string; readonly problem: string }

/**
 * Reconciles the manifest's `gen-*` imports with the uploaded tree: an imported generator
 * (`jsr:` specifier) must not also have a `gen-*` folder; a cloned one (local path) must point at
 * an uploaded file; and every top-level `gen-*` folder must be named by exactly one import.
 */
export function reconcileComposition(
  imports: Readonly<Record<string, string>>,
  paths: ReadonlySet<string>,
): { composition: Composition; problems: CompositionProblem[] } {
  const folders = new Set<string>()
  for (const path of paths) {
    const top = path.split('/')[0]
    if (top && path.includes('/') && top.startsWith('gen-')) folders.add(top)
  }
  const composition: GeneratorSource[] = []
  const problems: CompositionProblem[] = []
  const claimed = new Map<string, string>()

  for (const [key, value] of Object.entries(imports).sort(([a], [b]) => a.localeCompare(b))) {
    if (!key.startsWith('gen-')) continue
    const name = key.replace(/\/+$/, '')
    if (composition.some((g) => g.name === name)) {
      problems.push({ generator: name, problem: `'${name}' is imported more than once` })
      continue
    }
    if (value.startsWith('jsr:') || value.startsWith('npm:') || /^https?:\/\//.test(value)) {
      composition.push({ name, kind: 'imported', specifier: value })
      if (folders.has(name)) {
        problems.push({
          generator: name,
          problem: `'${name}' is imported (${value}) and also cloned in the folder '${name}/'`,
        })
        claimed.set(name, name)
      }
      continue
    }
    const checked = checkUploadPath(value)
    if (!checked.ok) {
      problems.push({ generator: name, problem: `'${name}' points at an unsafe path '${value}'` })
      continue
    }
    const target = checked.path
    const folder = target.split('/')[0] ?? target
    composition.push({ name, kind: 'cloned', path: target })
    const exists = value.endsWith('/')
      ? [...paths].some((p) => p.startsWith(`${target}/`))
      : paths.has(target)
    if (!exists) {
      problems.push({
        generator: name,
        problem: `'${name}' is cloned at '${value}', which is not in the upload`,
      })
    }
    const other = claimed.get(folder)
    if (other) {
      problems.push({
        generator: name,
        problem: `'${name}' and '${other}' both use the folder '${folder}/'`,
      })
    }
    claimed.set(folder, name)
  }

  for (const folder of [...folders].sort()) {
    if (!claimed.has(folder)) {
      problems.push({
        generator: folder,
        problem: `the folder '${folder}/' is a generator that no import in the root manifest names`,
      })
    }
  }
  return { composition, problems }
}
