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

/**
 * A policy refusal: nothing was sent to `url`. `redirects` lists the redirect locations followed
 * (and requested) before it, in order; empty when the first URL was refused.
 */
export class OutboundRefused extends Error {
  override readonly name = 'OutboundRefused'
  readonly redirects: readonly string[]
  constructor(
    readonly code: RefusalCode,
    readonly url: string,
    message: string,
    options?: { redirects?: readonly string[] },
  ) {
    super(message)
    this.redirects = options?.redirects ?? []
  }
}

/**
 * `url` could not be reached, or its answer broke a limit; `cause` holds the underlying error,
 * `redirects` the redirect locations followed before it (empty when it was the first URL).
 */
export class OutboundFailed extends Error {
  override readonly name = 'OutboundFailed'
  readonly redirects: readonly string[]
  constructor(
    readonly code: FailureCode,
    readonly url: string,
    message: string,
    options?: { cause?: unknown; redirects?: readonly string[] },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause })
    this.redirects = options?.redirects ?? []
  }
}

/**
 * `error` as it is, or, when it is a refusal or failure after `redirects` were followed, the
 * same error carrying them (with its original stack), so the caller can tell where it ended.
 */
export function afterRedirects(error: unknown, redirects: readonly string[]): unknown {
  if (redirects.length === 0) return error
  let copy: OutboundRefused | OutboundFailed
  if (error instanceof OutboundRefused) {
    copy = new OutboundRefused(error.code, error.url, error.message, { redirects: [...redirects] })
  } else if (error instanceof OutboundFailed) {
    copy = new OutboundFailed(error.code, error.url, error.message, {
      cause: error.cause,
      redirects: [...redirects],
    })
  } else {
    return error
  }
  copy.stack = error.stack
  return copy
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
