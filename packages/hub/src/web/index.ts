import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { secureHeaders } from 'hono/secure-headers'
import type { HubEnv } from '../http/env.js'
import { apiClient } from './api-client.js'
import { assets } from './assets/index.js'
import type { WebEnv } from './env.js'
import { authPages } from './pages/auth.js'
import { homePages } from './pages/home.js'
import { errorPage, notFoundPage } from './responses.js'
import { verifyForm } from './session/csrf.js'
import { loadSession } from './session/sessions.js'

/** Form posts are small; an upload (a document, base files) may be as large as the API takes. */
const FORM_BYTES = 256 * 1024

/**
 * The web app: server-rendered pages (Hono JSX) for everything the CLI does not do. It is its own
 * Hono app, reached for every path outside `/v1` and the probes, so its HTML errors, sessions and
 * CSRF checks never touch the API. Pages read and write through the /v1 API in-process
 * (`api-client.ts`), as the signed-in user.
 */
export function createWeb(api: Pick<Hono<HubEnv>, 'request'>) {
  const web = new Hono<WebEnv>()
  web.use('*', async (c, next) => {
    const parent = c.env.hub
    c.set('hub', parent.get('hub'))
    c.set('log', parent.get('log'))
    c.set('requestId', parent.get('requestId'))
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
  web.use('*', async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next()
    const { documentBytes, baseFiles } = c.get('hub').config
    const upload = /\/(?:revisions\/new|base-files)$/.test(c.req.path)
    return bodyLimit({
      maxSize: upload ? Math.max(documentBytes, baseFiles.sourceBytes) + FORM_BYTES : FORM_BYTES,
      onError: (c) =>
        errorPage(c as never, 413, 'Too large', 'This form sent more than the hub takes.'),
    })(c, next)
  })
  web.use('*', loadSession)
  web.use('*', async (c, next) => {
    c.set('api', apiClient(api, c.get('viewer'), c.get('requestId')))
    await next()
  })
  web.use('*', verifyForm)

  web.route('/', homePages)
  web.route('/', authPages())

  web.notFound((c) => notFoundPage(c))
  web.onError((error, c) => {
    c.get('log').error({ err: error }, 'unhandled error on a page')
    return errorPage(c, 500, 'Something went wrong', 'The hub failed to show this page.')
  })
  return web
}
