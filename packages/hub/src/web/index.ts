import { Hono, type Context } from 'hono'
import { secureHeaders } from 'hono/secure-headers'
import type { HubEnv } from '../http/env.js'
import { storeUnavailable } from '../store/unavailable.js'
import { apiClient } from './api-client.js'
import { assets } from './assets/index.js'
import type { WebEnv } from './env.js'
import { apiPages } from './pages/apis/index.js'
import { authPages } from './pages/auth.js'
import { accountPages } from './pages/account.js'
import { homePages } from './pages/home.js'
import { installPages } from './pages/install.js'
import { projectPages } from './pages/projects/index.js'
import { deploymentPages } from './pages/deployments/index.js'
import { stackPages } from './pages/stacks.js'
import { settingsPages } from './pages/settings/index.js'
import { readPageBody } from './page-body.js'
import { errorPage, notFoundPage } from './responses.js'
import { verifyForm, verifyOrigin } from './session/csrf.js'
import { loadSession } from './session/sessions.js'

/** The hub's handler of every page request: the web app, with the hub's context. */
export function webHandler(api: Pick<Hono<HubEnv>, 'request'>) {
  const web = createWeb(api)
  return (c: Context<HubEnv>): Response | Promise<Response> =>
    web.fetch(c.req.raw, { ...(c.env as object), hub: c })
}

/**
 * The web app: server-rendered pages (Hono JSX) for everything the CLI does not do. It is its own
 * Hono app, reached for every path outside `/v1` and the probes, so its HTML errors, sessions and
 * CSRF checks never touch the API. Pages read and write through the /v1 API in-process
 * (`api-client.ts`), as the signed-in user.
 */
function createWeb(api: Pick<Hono<HubEnv>, 'request'>) {
  const web = new Hono<WebEnv>()
  web.use('*', async (c, next) => {
    const parent = c.env.hub
    c.set('hub', parent.get('hub'))
    c.set('log', parent.get('log'))
    c.set('requestId', parent.get('requestId'))
    c.set('client', parent.get('client'))
    c.header('X-Request-Id', parent.get('requestId'))
    await next()
  })
  web.route('/', assets)
  web.use(
    '*',
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'none'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
      },
      referrerPolicy: 'same-origin',
      // HSTS belongs to whatever terminates TLS in front of the hub.
      strictTransportSecurity: false,
      crossOriginEmbedderPolicy: false,
    }),
  )
  // Who is asking and from where comes first: a body is read only once it is allowed.
  web.use('*', loadSession)
  web.use('*', async (c, next) => {
    c.set('api', apiClient(api, c.get('viewer'), c.get('requestId'), c.get('client')))
    await next()
  })
  web.use('*', verifyOrigin)
  web.use('*', readPageBody)
  web.use('*', verifyForm)

  web.route('/', homePages)
  web.route('/', installPages)
  web.route('/', authPages())
  web.route('/', apiPages)
  web.route('/', settingsPages)
  web.route('/', stackPages)
  web.route('/', projectPages)
  web.route('/', deploymentPages)
  // The account page (`/:handle`) stays last: every fixed path comes before it.
  web.route('/', accountPages)

  web.notFound((c) => notFoundPage(c))
  web.onError((error, c) => {
    const outage = storeUnavailable(error)
    if (outage) {
      c.get('log').warn({ err: outage, reason: outage.reason }, 'store unavailable')
      c.header('Retry-After', String(outage.retryAfterSeconds))
      return errorPage(
        c,
        503,
        'Try again shortly',
        'The hub cannot reach its database right now; reload the page in a few seconds.',
      )
    }
    c.get('log').error({ err: error }, 'unhandled error on a page')
    return errorPage(c, 500, 'Something went wrong', 'The hub failed to show this page.')
  })
  return web
}
