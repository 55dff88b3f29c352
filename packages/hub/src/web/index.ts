import { Hono, type Context } from 'hono'
import { secureHeaders } from 'hono/secure-headers'
import { ApiError } from '../errors/index.js'
import type { HubEnv } from '../http/env.js'
import { readLimitedBody } from '../http/limited-body.js'
import { apiClient } from './api-client.js'
import { assets } from './assets/index.js'
import type { WebEnv } from './env.js'
import { apiPages } from './pages/apis/index.js'
import { authPages } from './pages/auth.js'
import { accountPages } from './pages/account.js'
import { homePages } from './pages/home.js'
import { projectPages } from './pages/projects.js'
import { deploymentPages } from './pages/deployments.js'
import { stackPages } from './pages/stacks.js'
import { settingsPages } from './pages/settings/index.js'
import { errorPage, notFoundPage } from './responses.js'
import { verifyForm } from './session/csrf.js'
import { loadSession } from './session/sessions.js'

/** Form posts are small; an upload (a document, base files) may be as large as the API takes. */
const FORM_BYTES = 256 * 1024
const BODYLESS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * The hub's handler of every page request: reads the body first, within the limit of its page
 * (with the API's bounded reader, so a refused upload still gets its answer), then hands the
 * request to the web app with the hub's context.
 */
export function webHandler(api: Pick<Hono<HubEnv>, 'request'>) {
  const web = createWeb(api)
  return async (c: Context<HubEnv>): Promise<Response> => {
    let request = c.req.raw
    let tooLarge: WebEnv['Bindings']['tooLarge']
    if (!BODYLESS.has(request.method) && request.body) {
      try {
        const body = await readLimitedBody(request, bodyLimit(c))
        request = new Request(request.url, {
          method: request.method,
          headers: request.headers,
          ...(body ? { body } : {}),
        })
      } catch (error) {
        if (!(error instanceof ApiError) || error.code !== 'payload_too_large') throw error
        tooLarge = { closeConnection: error.closeConnection }
      }
    }
    return web.fetch(request, { ...(c.env as object), hub: c, tooLarge })
  }
}

function bodyLimit(c: Context<HubEnv>): number {
  const { documentBytes, baseFiles } = c.get('hub').config
  const upload = /\/(?:revisions\/new|base-files)$/.test(c.req.path)
  return upload ? Math.max(documentBytes, baseFiles.sourceBytes) + FORM_BYTES : FORM_BYTES
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
  web.use('*', async (c, next) => {
    const refused = c.env.tooLarge
    if (!refused) return next()
    if (refused.closeConnection) c.header('Connection', 'close')
    return errorPage(c, 413, 'Too large', 'This form sent more than the hub takes.')
  })
  web.use('*', loadSession)
  web.use('*', async (c, next) => {
    c.set('api', apiClient(api, c.get('viewer'), c.get('requestId')))
    await next()
  })
  web.use('*', verifyForm)

  web.route('/', homePages)
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
    c.get('log').error({ err: error }, 'unhandled error on a page')
    return errorPage(c, 500, 'Something went wrong', 'The hub failed to show this page.')
  })
  return web
}
