import { DocumentError } from '../input/document-error.js'
import { markCollectionFormats } from './collection-formats.js'
import { hoistPathLevelBodies } from './path-level-bodies.js'
import { mergeXMsPaths } from './x-ms-paths.js'

/**
 * Converts a Swagger 2.0 document to OpenAPI 3.0 with swagger2openapi. Nothing is fetched:
 * external refs are left for the parser to report.
 */
export async function convertSwagger(
  document: Record<string, unknown>,
  file?: string,
): Promise<Record<string, unknown>> {
  try {
    // Loaded only for 2.0 input: it pulls in a fetch stack and a second YAML parser.
    const { default: swagger2openapi } = await import('swagger2openapi')
    const copy = structuredClone(document)
    mergeXMsPaths(copy)
    hoistPathLevelBodies(copy)
    markCollectionFormats(copy)
    const result = await swagger2openapi.convertObj(copy, {
      patch: true,
      warnOnly: true,
      resolve: false,
    })
    return result.openapi
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new DocumentError(
      'conversion_failed',
      `This Swagger 2.0 document could not be converted to OpenAPI 3: ${reason}.`,
      {
        ...(file ? { file } : {}),
        cause: error,
      },
    )
  }
}
