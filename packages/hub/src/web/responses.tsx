import type { Child } from 'hono/jsx'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { ApiErrorBody } from '../errors/api-error.js'
import type { ApiClient } from './api-client.js'
import type { Flash, WebContext } from './env.js'
import { Layout, type Crumb } from './layout.js'
import type { NewSecret } from './session/sealed-secret.js'
import { setFlash } from './session/sessions.js'

export type PageOptions = {
  readonly title: string
  readonly crumbs?: readonly Crumb[]
  /** The top navigation entry this page belongs to. */
  readonly section?: 'apis' | 'stacks' | 'projects' | 'settings'
  readonly status?: ContentfulStatusCode
  /** Reload every few seconds (a run that is still going); no script needed. */
  readonly refreshSeconds?: number
}

/**
 * Answers a page in the app's layout. The page that shows a new secret is not kept by the browser
 * (`Cache-Control: no-store`): going back to it, or opening it offline, does not show it again.
 * A 429 after a /v1 call refused for its rate limit says `Retry-After` as the API did.
 */
export function page(
  c: WebContext,
  options: PageOptions,
  body: Child,
): Response | Promise<Response> {
  const secret = c.get('secret')
  if (secret) c.header('Cache-Control', 'no-store')
  // Unset when the request was refused before the API client was made.
  const wait = (c.get('api') as ApiClient | undefined)?.retryAfter
  if (options.status === 429 && wait !== undefined) c.header('Retry-After', String(wait))
  return c.html(
    <Layout
      title={options.title}
      viewer={c.get('viewer')}
      csrfToken={c.get('csrfToken')}
      flash={c.get('flash')}
      secret={secret}
      crumbs={options.crumbs ?? []}
      section={options.section}
      refreshSeconds={options.refreshSeconds}
    >
      {body}
    </Layout>,
    options.status ?? 200,
  )
}

export function errorPage(
  c: WebContext,
  status: ContentfulStatusCode,
  title: string,
  message: string,
): Response | Promise<Response> {
  return page(
    c,
    { title, status },
    <div class="narrow card">
      <h1>{title}</h1>
      <p>{message}</p>
      <p>
        <a href="/">Back to the start page</a>
      </p>
    </div>,
  )
}

/** The one 404 of the web app: also what a private API shows to whoever cannot read it. */
export function notFoundPage(c: WebContext): Response | Promise<Response> {
  return errorPage(c, 404, 'Not found', 'There is no page here, or you cannot see it.')
}

/**
 * Answers a failed /v1 call: 404 and 403 as the not-found page (a page never tells that something
 * exists that the viewer cannot see), 401 as a redirect to sign in, 429 with when to try again,
 * 503 (the database away, the hub busy) as a passing state, anything else as its message.
 */
export function apiErrorPage(c: WebContext, error: { status: number; error: ApiErrorBody }) {
  if (error.status === 401) return signInRedirect(c)
  if (error.status === 404 || error.status === 403) return notFoundPage(c)
  if (error.status === 429) return errorPage(c, 429, 'Too many requests', error.error.message)
  if (error.status === 503) return errorPage(c, 503, 'Try again shortly', error.error.message)
  return errorPage(
    c,
    error.status as ContentfulStatusCode,
    'Something went wrong',
    error.error.message ?? 'The hub could not answer this page.',
  )
}

export function signInRedirect(c: WebContext): Response {
  const back = c.req.method === 'GET' ? c.req.path : '/'
  return c.redirect(`/signin?next=${encodeURIComponent(back)}`, 303)
}

/**
 * After a successful form: keep `flash` for the next page and go there (post/redirect/get). A
 * `secret` the form made is shown once on that page, and is kept until then only sealed, with its
 * key in the browser (web/session/sessions.ts).
 */
export async function redirectWith(
  c: WebContext,
  to: string,
  flash: Flash,
  secret?: NewSecret,
): Promise<Response> {
  await setFlash(c, flash, secret)
  if (secret) c.header('Cache-Control', 'no-store')
  return c.redirect(to, 303)
}

/** Sets `Retry-After` and answers when to try again, in words: "in 40 seconds", "in 3 minutes". */
export function retryAfter(c: WebContext, seconds: number): string {
  c.header('Retry-After', String(seconds))
  if (seconds < 120) return `in ${seconds} second${seconds === 1 ? '' : 's'}`
  return `in ${Math.ceil(seconds / 60)} minutes`
}
