import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

/** The options of `tsc --noEmit --strict --target ES2022 --module NodeNext` on generated files. */
const OPTIONS: ts.CompilerOptions = {
  noEmit: true,
  strict: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  allowImportingTsExtensions: true,
  // The lib files, zod and @types are not under test, and every program would check them again.
  skipLibCheck: true,
  // Generated code runs in browsers as well as Node: the DOM lib must do, without @types/node.
  types: [],
}

// A folder nobody writes, inside the workspace: generated files resolve the packages and @types it
// installed (zod), as they would written there.
const root = fileURLToPath(new URL('../../../node_modules/.cache/svc-typecheck/', import.meta.url))
const disk = ts.createCompilerHost(OPTIONS)
/** Files read from disk, parsed once for every program of this test file. */
const parsed = new Map<string, ts.SourceFile | undefined>()
let programs = 0

/**
 * What a strict team adds to `strict`, with plain `nodenext` (no `allowImportingTsExtensions`):
 * generated code must compile under it, as bench/compile-real-docs.js checks on real documents.
 */
export const STRICTEST: ts.CompilerOptions = {
  ...OPTIONS,
  allowImportingTsExtensions: false,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
}

/**
 * Type-checks generated files with the options of `tsc --strict` (or `options`), in this process:
 * the files stay in memory and everything else they read is parsed once. Returns the diagnostics
 * as `tsc` prints them, relative to the folder of the files; none when they compile.
 */
export function typecheck(
  files: ReadonlyMap<string, string>,
  options: ts.CompilerOptions = OPTIONS,
): string[] {
  const folder = join(root, `program-${++programs}`)
  const own = new Map([...files].map(([path, content]) => [join(folder, path), content]))
  const host: ts.CompilerHost = {
    ...disk,
    getCurrentDirectory: () => folder,
    fileExists: (name) => own.has(name) || disk.fileExists(name),
    readFile: (name) => own.get(name) ?? disk.readFile(name),
    directoryExists: (name) =>
      name === folder || name.startsWith(`${folder}/`) || disk.directoryExists!(name),
    getSourceFile(name, version, onError) {
      const content = own.get(name)
      if (content !== undefined) return ts.createSourceFile(name, content, version)
      // The module format a declaration file is read in depends on the package that holds it.
      const key = `${typeof version === 'object' ? version.impliedNodeFormat : ''}:${name}`
      if (!parsed.has(key)) parsed.set(key, disk.getSourceFile(name, version, onError))
      return parsed.get(key)
    },
  }
  const program = ts.createProgram({ rootNames: [...own.keys()], options, host })
  const format: ts.FormatDiagnosticsHost = {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => folder,
    getNewLine: () => '\n',
  }
  return ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => ts.formatDiagnostic(diagnostic, format).trimEnd())
}
