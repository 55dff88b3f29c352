/**
 * The closed list of error codes the hub answers with, each with its HTTP status.
 * docs/api/errors.md documents every entry; a test keeps the two in step.
 */
export const ERROR_CODES = {
  malformed_request: 400,
  idempotency_key_required: 400,
  missing_api_key: 400,
  unauthorized: 401,
  insufficient_credits: 402,
  forbidden: 403,
  insufficient_scope: 403,
  api_key_revoked: 403,
  not_found: 404,
  already_exists: 409,
  version_exists: 409,
  webhook_inactive: 409,
  delivery_pending: 409,
  no_source_url: 409,
  no_deployment: 409,
  idempotency_in_flight: 409,
  quota_exceeded: 413,
  unsupported_media_type: 415,
  invalid_request: 422,
  idempotency_conflict: 422,
  missing_part: 422,
  duplicate_part: 422,
  invalid_version: 422,
  invalid_manifest: 422,
  manifest_name_mismatch: 422,
  composition_inconsistent: 422,
  unsafe_path: 422,
  duplicate_path: 422,
  payload_too_large: 422,
  empty_bundle: 422,
  missing_manifest: 422,
  invalid_document: 422,
  document_too_complex: 422,
  url_refused: 422,
  rate_limited: 429,
  queue_full: 429,
  internal_error: 500,
  source_unreachable: 502,
  unavailable: 503,
  sandbox_unavailable: 503,
} as const

export type ErrorCode = keyof typeof ERROR_CODES
export type ErrorStatus = (typeof ERROR_CODES)[ErrorCode]
