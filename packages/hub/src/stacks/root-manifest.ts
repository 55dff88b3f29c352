import { parseScopedName } from '../accounts/handles.js'
import { ApiError } from '../errors/index.js'
import type { UploadedFile } from '../uploads/read-upload.js'

/** The root manifest's path in an uploaded project tree. */
export const ROOT_MANIFEST = 'deno.json'

export type RootManifest = {
  readonly account: string
  readonly slug: string
  readonly version: string | undefined
  readonly imports: Readonly<Record<string, string>>
}

/** Reads `deno.json` from the upload: `name` (`@account/slug`), optional `version`, `imports`. */
export function readRootManifest(files: readonly UploadedFile[]): RootManifest {
  const file = files.find((f) => f.path === ROOT_MANIFEST)
  if (!file) {
    throw new ApiError(
      'missing_manifest',
      `The upload has no root manifest '${ROOT_MANIFEST}'; send it as a 'files' part.`,
    )
  }
  let json: unknown
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(file.data))
  } catch (error) {
    throw invalid(`it is not JSON (${(error as Error).message})`)
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw invalid('it is not an object')
  const manifest = json as Record<string, unknown>
  if (typeof manifest.name !== 'string') throw invalid("it has no 'name'")
  const name = parseScopedName(manifest.name, { scoped: true })
  if (!name) throw invalid(`its name '${manifest.name}' is not scoped as '@account/slug'`)
  const version = typeof manifest.version === 'string' ? manifest.version : undefined
  const imports = manifest.imports ?? {}
  if (typeof imports !== 'object' || imports === null || Array.isArray(imports)) {
    throw invalid("its 'imports' is not an object")
  }
  for (const [key, value] of Object.entries(imports)) {
    if (typeof value !== 'string') throw invalid(`its import '${key}' is not a string`)
  }
  return { ...name, version, imports: imports as Record<string, string> }
}

function invalid(why: string): ApiError {
  return new ApiError(
    'invalid_manifest',
    `The root manifest '${ROOT_MANIFEST}' is not valid: ${why}.`,
  )
}
