import { timingSafeEqual } from 'node:crypto'
import { createMiddleware } from 'hono/factory'
import type { WebEnv } from '../env.js'
import { errorPage } from '../responses.js'
import { CSRF_FIELD } from './csrf-field.js'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
const FORM_TYPES = /^(?:application\/x-www-form-urlencoded|multipart\/form-data)\b/i

/**
 * Every state-changing page request must be a form post from this hub. First, before its body is
 * read: a form's content type, and its `Origin` (or, without one, `Sec-Fetch-Site`) names this
 * site. Anything else is refused unread (the connection then closes) and changes nothing.
 */
export const verifyOrigin = createMiddleware<WebEnv>(async function verifyOrigin(c, next) {
  if (SAFE_METHODS.has(c.req.method)) return next()
  if (!FORM_TYPES.test(c.req.header('content-type') ?? '')) {
    c.header('Connection', 'close')
    return errorPage(c, 415, 'Unsupported form', 'This page only takes form posts.')
  }
  if (
    !sameSite(c.req.header('origin'), c.req.header('sec-fetch-site'), [
      new URL(c.req.url).origin,
      c.get('hub').config.publicUrl,
    ])
  ) {
    c.header('Connection', 'close')
    return errorPage(c, 403, 'Refused', 'This form was sent from another site.')
  }
  await next()
})

/**
 * Then, once the body is read (web/page-body.ts): its `_csrf` field is the token of this
 * browser's session (or, signed out, of its `svc_csrf` cookie). Otherwise 403, nothing changed.
 */
export const verifyForm = createMiddleware<WebEnv>(async function verifyForm(c, next) {
  if (SAFE_METHODS.has(c.req.method)) return next()
  const form = await c.req.parseBody()
  const sent = form[CSRF_FIELD]
  if (typeof sent !== 'string' || !equal(sent, c.get('csrfToken'))) {
    return errorPage(
      c,
      403,
      'This form has expired',
      'The page was opened in another session, or it came from another site. Reload it and try again.',
    )
  }
  await next()
})

function sameSite(
  origin: string | undefined,
  fetchSite: string | undefined,
  ours: readonly string[],
): boolean {
  if (origin !== undefined && origin !== 'null') return ours.includes(origin)
  if (origin === 'null') return false
  return fetchSite === undefined || fetchSite === 'same-origin' || fetchSite === 'none'
}

function equal(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}
