/** Why {@link verifyWebhook} refused a request. */
export type VerificationFailure =
  | 'missing_signature'
  | 'malformed_signature'
  | 'timestamp_out_of_tolerance'
  | 'signature_mismatch'
  | 'malformed_event'

/**
 * A request that is not a genuine, fresh svc webhook. Answer it with 400: the hub then fails the
 * delivery and its owner sees the attempt.
 */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError'
  readonly code: VerificationFailure

  constructor(code: VerificationFailure, message: string, options?: ErrorOptions) {
    super(message, options)
    this.code = code
  }
}
