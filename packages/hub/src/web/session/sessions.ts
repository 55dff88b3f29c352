import { randomBytes } from 'node:crypto'
import { getCookie, setCookie, deleteCookie } from 'hono/cookie'
import { createMiddleware } from 'hono/factory'
import { hashSecret } from '../../auth/secrets.js'
import { writeLater } from '../../http/bookkeeping.js'
import type { Flash, WebContext, WebEnv } from '../env.js'
import { seal, unseal, type NewSecret, type SealedSecret } from './sealed-secret.js'

export const SESSION_COOKIE = 'svc_session'
/** Before sign-in, the CSRF token of the sign-in and sign-up forms lives in its own cookie. */
export const CSRF_COOKIE = 'svc_csrf'
/** The key of the secret sealed in the session's notice: only the browser that made it has it. */
export const SECRET_KEY_COOKIE = 'svc_secret_key'
/** How long the page after a form has to show the secret it made. */
const SECRET_KEY_SECONDS = 10 * 60

/** A session lasts 30 days from sign-in, and ends sooner after 7 days unseen. */
const SESSION_DAYS = 30
const IDLE_DAYS = 7
const DAY_MS = 24 * 60 * 60 * 1000
const TOUCH_INTERVAL_MS = 60_000

const TOKEN = /^[A-Za-z0-9_-]{43}$/

/** A notice as the session row keeps it: a new secret only sealed, never in plain text. */
type StoredFlash = Flash & { readonly sealed?: SealedSecret }

/**
 * Loads the browser's session into `viewer`, its one-time notice into `flash` (and a new secret
 * into `secret`) and the page's CSRF token into `csrfToken`. An unknown, expired or idle session
 * cookie is cleared.
 */
export const loadSession = createMiddleware<WebEnv>(async function loadSession(c, next) {
  c.set('viewer', undefined)
  c.set('flash', undefined)
  c.set('secret', undefined)
  const token = getCookie(c, SESSION_COOKIE)
  if (token !== undefined) {
    const { store } = c.get('hub')
    const session = TOKEN.test(token)
      ? await store.sessions.findByTokenHash(hashSecret(token))
      : undefined
    const at = Date.now()
    if (
      session &&
      Date.parse(session.expires_at) > at &&
      Date.parse(session.last_seen_at) + IDLE_DAYS * DAY_MS > at
    ) {
      c.set('viewer', {
        userId: session.user_id,
        handle: session.user_handle,
        sessionId: session.id,
      })
      c.set('csrfToken', session.csrf_token)
      // Only a page shows the notice; a redirect or a form error keeps it for the next page.
      if (session.flash !== null && c.req.method === 'GET') {
        const { sealed, ...flash } = JSON.parse(session.flash) as StoredFlash
        c.set('flash', flash)
        if (sealed) c.set('secret', openSecret(c, sealed, session.id))
        await store.sessions.setFlash(session.id, null)
      }
      if (Date.parse(session.last_seen_at) + TOUCH_INTERVAL_MS < at) {
        const when = new Date(at).toISOString()
        writeLater(
          `session:${session.id}`,
          () => store.sessions.touch(session.id, when),
          c.get('log'),
          'session use',
        )
      }
    } else {
      if (session) await store.sessions.delete(session.id)
      deleteCookie(c, SESSION_COOKIE, { path: '/' })
    }
  }
  if (!c.get('viewer')) c.set('csrfToken', anonymousCsrfToken(c))
  await next()
})

/**
 * Signs the user in on this browser: a new session (and a new CSRF token) in a new cookie, never
 * the one the browser came with. The rest of this request sees the new viewer.
 */
export async function startSession(c: WebContext, userId: string, handle: string): Promise<void> {
  const { store } = c.get('hub')
  const token = randomBytes(32).toString('base64url')
  await store.sessions.deleteExpired(new Date().toISOString())
  const previous = c.get('viewer')
  if (previous) await store.sessions.delete(previous.sessionId)
  const session = await store.sessions.create({
    userId,
    tokenHash: hashSecret(token),
    csrfToken: randomBytes(32).toString('base64url'),
    expiresAt: new Date(Date.now() + SESSION_DAYS * DAY_MS).toISOString(),
  })
  setCookie(c, SESSION_COOKIE, token, cookieOptions(c, SESSION_DAYS * 24 * 60 * 60))
  deleteCookie(c, CSRF_COOKIE, { path: '/' })
  c.set('viewer', { userId, handle, sessionId: session.id })
  c.set('csrfToken', session.csrf_token)
}

export async function endSession(c: WebContext): Promise<void> {
  const viewer = c.get('viewer')
  if (viewer) await c.get('hub').store.sessions.delete(viewer.sessionId)
  deleteCookie(c, SESSION_COOKIE, { path: '/' })
}

/**
 * Keeps `flash` for the next page of this session (after a redirect), with `secret` sealed: the
 * session row gets the sealed box, the browser the key (a cookie), so the secret is at rest
 * nowhere in plain text, and the store alone cannot open it.
 */
export async function setFlash(c: WebContext, flash: Flash, secret?: NewSecret): Promise<void> {
  const viewer = c.get('viewer')
  if (!viewer) return
  let stored: StoredFlash = { kind: flash.kind, message: flash.message }
  if (secret) {
    const { sealed, key } = seal(secret, viewer.sessionId)
    stored = { ...stored, sealed }
    setCookie(c, SECRET_KEY_COOKIE, key, cookieOptions(c, SECRET_KEY_SECONDS))
  }
  await c.get('hub').store.sessions.setFlash(viewer.sessionId, JSON.stringify(stored))
}

/** The sealed secret opened with the browser's key, which is then dropped; without it, no value. */
function openSecret(c: WebContext, sealed: SealedSecret, sessionId: string) {
  const key = getCookie(c, SECRET_KEY_COOKIE)
  if (key !== undefined) deleteCookie(c, SECRET_KEY_COOKIE, { path: '/' })
  const opened = key === undefined ? undefined : unseal(sealed, key, sessionId)
  return { label: sealed.label, value: opened?.value }
}

/** The signed-out browser's CSRF token: kept in a cookie, made on its first page. */
function anonymousCsrfToken(c: WebContext): string {
  const existing = getCookie(c, CSRF_COOKIE)
  if (existing && TOKEN.test(existing)) return existing
  const token = randomBytes(32).toString('base64url')
  setCookie(c, CSRF_COOKIE, token, cookieOptions(c))
  return token
}

/**
 * Every cookie of the web app: the whole site, never read by a page's script, not sent on
 * cross-site requests, and only over https when the hub is served over https.
 */
function cookieOptions(c: WebContext, maxAge?: number) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: c.get('hub').config.publicUrl.startsWith('https:'),
    ...(maxAge === undefined ? {} : { maxAge }),
  } as const
}
