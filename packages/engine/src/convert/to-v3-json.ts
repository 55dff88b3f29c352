import { DocumentError } from '../input/document-error.js'
import { DEFAULT_LIMITS, type InputLimits } from '../input/limits.js'
import { detectTextKind } from '../input/detect-protocol.js'
import { loadOpenApi, type ApiSource, type ParseApiOptions } from '../parse-api.js'

export type ToV3JsonResult = {
  /** The OpenAPI 3 document as plain JSON data. */
  readonly schema: Record<string, unknown>
  /** The version of the input: `2.0` (converted), or the 3.x version it already had. */
  readonly sourceVersion: string
}

/**
 * Returns an OpenAPI 3 document for any OpenAPI input: 2.0 is converted with swagger2openapi,
 * 3.0 and 3.1 pass through, normalised to JSON data. Relative file refs are bundled in when
 * `readFile` is given, so the result stands alone. GraphQL SDL has no OpenAPI form.
 */
export async function toV3Json(
  source: ApiSource,
  options: Pick<ParseApiOptions, 'readFile' | 'limits'> = {},
): Promise<ToV3JsonResult> {
  const limits: InputLimits = { ...DEFAULT_LIMITS, ...options.limits }
  if (detectTextKind(source.text) === 'sdl') {
    throw new DocumentError(
      'unknown_protocol',
      'This is GraphQL SDL; only OpenAPI documents convert to OpenAPI 3.',
    )
  }
  const loaded = await loadOpenApi(source, options, limits)
  return { schema: loaded.document, sourceVersion: loaded.version }
}
