import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import ts from 'typescript'
import type { ZodType } from 'zod'

// Inside the workspace, so that the generated files resolve its zod.
const scratch = fileURLToPath(
  new URL('../../../../node_modules/.cache/svc-gen-zod/', import.meta.url),
)

/** Transpiles generated `zod.ts` to JavaScript in a new folder and imports its schemas. */
export async function loadSchemas(
  files: ReadonlyMap<string, string>,
): Promise<Record<string, ZodType>> {
  mkdirSync(scratch, { recursive: true })
  const folder = mkdtempSync(scratch)
  writeFileSync(join(folder, 'package.json'), '{ "type": "module" }')
  const { outputText } = ts.transpileModule(files.get('zod.ts')!, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  })
  writeFileSync(join(folder, 'zod.js'), outputText)
  return (await import(pathToFileURL(join(folder, 'zod.js')).href)) as Record<string, ZodType>
}

/**
 * A laid-out `zod.ts` with each declaration on one line, for assertions on what a schema is
 * rather than on how it is broken (layout.test.ts checks that).
 */
export function oneLine(zod: string): string {
  return zod
    .replace(/(?<!\n)\n(?!\n)\s*/g, ' ')
    .replace(/([([]) /g, '$1')
    .replace(/,? ([)\]])/g, '$1')
    .replace(/, }/g, ' }')
    .replace(/ \./g, '.')
}
