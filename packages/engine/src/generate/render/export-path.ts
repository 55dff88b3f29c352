/** The extension written into relative import specifiers between generated files. */
export type ImportExtension = '.ts' | '.js' | ''

/**
 * Throws unless `exportPath` is a normalized relative POSIX path to a `.ts` file
 * (`types.ts`, `zod/pet.ts`): relative specifiers are computed from it, and the caller joins it
 * onto its output folder, so it must never climb out of that folder.
 */
export function assertExportPath(exportPath: string): void {
  const problem = exportPathProblem(exportPath)
  if (problem !== undefined) throw new Error(`Invalid export path '${exportPath}': ${problem}`)
}

function exportPathProblem(exportPath: string): string | undefined {
  if (exportPath === '') return 'must not be empty'
  if (exportPath.includes('\\')) return "use '/' as the separator"
  if (exportPath.startsWith('/')) return 'must be relative'
  if (
    exportPath.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')
  )
    return "must not contain empty, '.' or '..' segments"
  if (!/[^/]\.ts$/.test(exportPath) || exportPath.endsWith('.d.ts')) return "must end with '.ts'"
  return undefined
}

/**
 * The specifier that the file at `fromPath` uses to import the file at `toPath`, both export
 * paths: `relativeSpecifier('zod/pet.ts', 'types.ts', '.js')` is `'../types.js'`.
 */
export function relativeSpecifier(
  fromPath: string,
  toPath: string,
  extension: ImportExtension,
): string {
  const fromDirs = fromPath.split('/').slice(0, -1)
  const toSegments = toPath.split('/')
  let common = 0
  while (
    common < fromDirs.length &&
    common < toSegments.length - 1 &&
    fromDirs[common] === toSegments[common]
  )
    common++
  const up = fromDirs.length - common
  const prefix = up === 0 ? './' : '../'.repeat(up)
  return prefix + toSegments.slice(common).join('/').replace(/\.ts$/, extension)
}
