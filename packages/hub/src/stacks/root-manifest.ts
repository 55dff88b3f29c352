import { readRootManifestText, ROOT_MANIFEST, type RootManifest } from '@svc/project-format'
import { ApiError } from '../errors/index.js'
import type { UploadedFile } from '../uploads/read-upload.js'

/**
 * Reads `deno.json` from the upload: `name` (`@account/slug`), optional `version`, `imports`.
 * The `version` part is what gets published, so the manifest's own may be missing.
 */
export function readRootManifest(files: readonly UploadedFile[]): RootManifest<string | undefined> {
  const file = files.find((f) => f.path === ROOT_MANIFEST)
  if (!file) {
    throw new ApiError(
      'missing_manifest',
      `The upload has no root manifest '${ROOT_MANIFEST}'; send it as a 'files' part.`,
    )
  }
  const reading = readRootManifestText(file.data, { version: 'optional' })
  if (!reading.ok) {
    throw new ApiError(
      'invalid_manifest',
      `The root manifest '${ROOT_MANIFEST}' is not valid: ${reading.problems.join('; ')}.`,
    )
  }
  return reading.manifest
}
