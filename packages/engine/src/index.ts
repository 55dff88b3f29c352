/**
 * @module @svc/engine: parse OpenAPI 2.0 / 3.0 / 3.1 and GraphQL SDL into one model with typed
 * parse issues, resolve refs, and convert any OpenAPI document to OpenAPI 3.
 */
export {
  parseApi,
  type ApiSource,
  type ParseApiOptions,
  type ParseApiResult,
  type SourceInfo,
} from './parse-api.js'
export { toV3Json, type ToV3JsonResult } from './convert/to-v3-json.js'
export {
  DOCUMENT_ERROR_CODES,
  DocumentError,
  isDocumentErrorCode,
  type DocumentErrorCode,
} from './input/document-error.js'
export { DEFAULT_LIMITS, MAX_SCHEMA_DEPTH, type InputLimits } from './input/limits.js'
export type { Protocol } from './input/detect-protocol.js'
export type { ReadFile } from './input/external-refs.js'
export * from './issues/index.js'
export * from './model/index.js'
export * from './refs/index.js'
export * from './diff/index.js'
