/** Why the guard refused a target. */
export type RefusalCode =
  | 'invalid_url'
  | 'unsupported_scheme'
  | 'reserved_hostname'
  | 'private_address'
  | 'private_dns'
  | 'downgrade'
  | 'too_many_redirects'

/** Why a target the guard admitted could not be reached, or answered badly. */
export type FailureCode = 'timeout' | 'network' | 'dns' | 'too_large'

/** A policy refusal: nothing was sent to `url`. */
export class OutboundRefused extends Error {
  override readonly name = 'OutboundRefused'
  constructor(
    readonly code: RefusalCode,
    readonly url: string,
    message: string,
  ) {
    super(message)
  }
}

/** `url` could not be reached, or its answer broke a limit; `cause` holds the underlying error. */
export class OutboundFailed extends Error {
  override readonly name = 'OutboundFailed'
  constructor(
    readonly code: FailureCode,
    readonly url: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

/** An entry of the operator allow-list is neither a CIDR nor an exact origin. */
export class AllowListError extends Error {
  override readonly name = 'AllowListError'
  constructor(
    readonly entry: string,
    reason: string,
  ) {
    super(`allow-list entry ${JSON.stringify(entry)}: ${reason}`)
  }
}
