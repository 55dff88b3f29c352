import { OpenAPIHono } from '@hono/zod-openapi'
import type { Context } from 'hono'
import type { Logger } from 'pino'
import { apiKeyFromQuery } from './auth/api-key.js'
import { ApiError, errorResponse, renderError } from './errors/index.js'
import { capAnonymousBody } from './http/anonymous-body.js'
import type { HubEnv, HubServices } from './http/env.js'
import { authenticate } from './middleware/authenticate.js'
import { recordMetrics } from './middleware/metrics.js'
import { requestContext } from './middleware/request-context.js'
import { rateLimit } from './ratelimit/index.js'
import { apis } from './routes/apis.js'
import { deliveries } from './routes/deliveries.js'
import { downloads } from './routes/downloads.js'
import { health } from './routes/health.js'
import { libraries } from './routes/libraries.js'
import { projects } from './routes/projects.js'
import { deployments } from './routes/deployments.js'
import { orgRateLimits } from './routes/rate-limits.js'
import { rateLimitsEndpoint } from './routes/rate-limits-endpoint.js'
import { revisionReview } from './routes/revision-review.js'
import { revisions } from './routes/revisions.js'
import { stacks } from './routes/stacks.js'
import { usage } from './routes/usage.js'
import { user } from './routes/user.js'
import { webhooks } from './routes/webhooks.js'
import { registerWebhookEvents } from './webhooks/openapi.js'
import { webHandler } from './web/index.js'
import { closeIfBodyUnread } from './http/unread-body.js'
import { describeIntegers, integerTypes } from './http/openapi-integers.js'

export const HUB_API_VERSION = '1.0.0'

const notFound = (c: Context<HubEnv>) =>
  errorResponse(c, new ApiError('not_found', `No route matches ${c.req.method} ${c.req.path}.`))

/** The hub's HTTP app: every route, one error shape, one description at `/v1/openapi.json`. */
export function createApp(hub: HubServices, log: Logger): OpenAPIHono<HubEnv> {
  const app = new OpenAPIHono<HubEnv>()
  app.use('*', requestContext(hub, log))
  app.use('*', recordMetrics(hub.metrics))
  app.use('*', closeIfBodyUnread)
  app.route('/', health)
  app.route('/downloads', downloads)

  app.use('/v1/*', authenticate)
  app.use('/v1/*', capAnonymousBody)
  // Before the limiter: it then counts the key's organisation and applies its overrides.
  app.use('/v1/rate-limits', apiKeyFromQuery)
  app.use('/v1/*', rateLimit)
  app.route('/v1', user)
  app.route('/v1/stacks', stacks)
  app.route('/v1/projects', projects)
  app.route('/v1/projects', deployments)
  app.route('/v1/apis', apis)
  app.route('/v1/apis', revisions)
  app.route('/v1/apis', revisionReview)
  app.route('/v1/apis', webhooks)
  app.route('/v1/apis', deliveries)
  app.route('/v1/orgs', orgRateLimits)
  app.route('/v1', rateLimitsEndpoint)
  app.route('/v1/libraries', libraries)
  app.route('/v1/accounts', usage)

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'A personal access token (`svc_pat_…`)',
  })
  registerWebhookEvents(app.openAPIRegistry)
  const document = () => {
    describeIntegers(app.openAPIRegistry.definitions)
    return integerTypes(
      app.getOpenAPI31Document({
        openapi: '3.1.0',
        info: {
          title: 'svc hub',
          version: HUB_API_VERSION,
          description:
            'APIs, revisions, stacks and projects. Every error is the ApiError envelope.',
        },
        servers: [{ url: hub.config.publicUrl }],
      }),
    )
  }
  let cached: ReturnType<typeof document> | undefined
  app.get('/v1/openapi.json', (c) => c.json((cached ??= document())))

  // Every other path is a page of the web app; under /v1 an unknown path stays a JSON 404.
  const pages = webHandler(app)
  app.all('*', (c) =>
    c.req.path === '/v1' || c.req.path.startsWith('/v1/') ? notFound(c) : pages(c),
  )
  app.notFound(notFound)
  app.onError(renderError)
  return app
}
