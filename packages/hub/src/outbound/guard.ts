import { checkUrl, OutboundRefused, type AllowList } from '@svc/safe-fetch'
import { ApiError } from '../errors/index.js'

/**
 * `url` as the guard normalises it, checked now (scheme, name, literal address) so that a
 * target the hub would never send to is refused when it is given, not at the first attempt;
 * DNS is checked at every request. 422 `url_refused` otherwise.
 */
export function outboundUrl(url: string, allow: AllowList, field: string): string {
  try {
    return checkUrl(url, { allow }).href
  } catch (error) {
    if (error instanceof OutboundRefused) throw refused(error, field)
    throw error
  }
}

/** 422 `url_refused` for what the guard refused; `details.reason` is its code. */
export function refused(error: OutboundRefused, field: string): ApiError {
  return new ApiError(
    'url_refused',
    `The hub does not send requests to ${field}: ${error.message.replace(/\.$/, '')}.`,
    { reason: error.code, field },
  )
}
