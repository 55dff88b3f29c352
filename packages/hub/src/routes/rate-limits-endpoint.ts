import { createRoute, z } from '@hono/zod-openapi'
import { apiKeyFromQuery } from '../auth/api-key.js'
import { ChargeInfoSchema, creditStanding } from '../credits/index.js'
import { createRouter, errorResponses } from '../http/router.js'
import { whileStoreAnswers } from '../http/store-unavailable.js'

/** SPEC §2 Rate limit record. */
const RateLimitRecordSchema = z
  .object({
    method: z.string().openapi({ example: 'GET' }),
    path: z.string().openapi({ example: '/v1/rate-limits' }),
    max: z.number().int().openapi({ description: 'Requests allowed in the window', example: 20 }),
    windowSeconds: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'The window in seconds; null if unavailable', example: 60 }),
    isCustom: z.boolean().openapi({ description: "True when the organisation's own override" }),
  })
  .openapi('RateLimitRecord')

const WarningSchema = z
  .object({
    field: z
      .string()
      .openapi({ description: 'Full path of the extraneous field', example: 'query.foo' }),
    message: z.string(),
  })
  .openapi('RequestWarning')

const RateLimitsResponseSchema = z
  .object({
    output: z.object({ rateLimits: z.array(RateLimitRecordSchema) }),
    chargeInfo: ChargeInfoSchema,
    warnings: z.array(WarningSchema).nullable(),
    advice: z.array(z.string()).nullable(),
  })
  .openapi('RateLimitsResponse')

const QUERY_FIELDS = new Set(['apiKey'])

const FREE = 'This call is free: no credits were charged.'

export const rateLimitsEndpoint = createRouter()

rateLimitsEndpoint.openAPIRegistry.registerComponent('securitySchemes', 'apiKeyQuery', {
  type: 'apiKey',
  in: 'query',
  name: 'apiKey',
  description: 'An organisation API key (`svc_key_…`)',
})

rateLimitsEndpoint.openapi(
  createRoute({
    method: 'get',
    path: '/rate-limits',
    tags: ['organisations'],
    summary: "The organisation's rate limits",
    description:
      "The effective rate limit of every `/v1` route for the organisation of `apiKey`: the defaults with the organisation's overrides. Free: no credits are charged (never 402). Limited to 20 requests per minute.",
    security: [{ apiKeyQuery: [] }],
    middleware: [apiKeyFromQuery] as const,
    request: {
      query: z.object({
        apiKey: z.string().min(1).openapi({ description: 'An organisation API key (`svc_key_…`)' }),
      }),
    },
    responses: {
      200: {
        description: 'The effective limits and what the call cost',
        content: { 'application/json': { schema: RateLimitsResponseSchema } },
      },
      ...errorResponses(400, 401, 402, 403, 404, 422, 429, 500, 503),
    },
  }),
  async (c) => {
    const key = c.get('keyCaller')
    if (!key) throw new Error('apiKeyFromQuery did not run')
    const { store, config, rateLimits } = c.get('hub')
    const org = { id: key.orgId, handle: key.orgHandle }
    const [table, standing] = await whileStoreAnswers(store, () =>
      Promise.all([rateLimits.tableFor(org.id), creditStanding(store, org, config.publicUrl)]),
    )
    const warnings = extraneousFields(c.req.url)
    const advice = [...nearLimitAdvice(c.res.headers)]
    if (standing.balance === 0) {
      advice.push(
        `'${org.handle}' has no credits: calls that cost credits are refused with 402 until more are granted.`,
      )
    }
    return c.json(
      {
        output: { rateLimits: table },
        chargeInfo: {
          method: 'free' as const,
          message: FREE,
          lowCreditAlert: standing.lowCreditAlert,
        },
        warnings: warnings.length > 0 ? warnings : null,
        advice: advice.length > 0 ? advice : null,
      },
      200,
    )
  },
)

/** One warning per query parameter the endpoint does not read, in the order sent. */
function extraneousFields(url: string): { field: string; message: string }[] {
  const names = new Set(new URL(url).searchParams.keys())
  return [...names]
    .filter((name) => !QUERY_FIELDS.has(name))
    .map((name) => ({
      field: `query.${name}`,
      message: `'${name}' is not a parameter of this endpoint and was ignored.`,
    }))
}

/**
 * A tip when this call is close to its own limit, from the `RateLimit-*` headers the limiter
 * set on this response before the route ran (none when limits are off).
 */
function* nearLimitAdvice(headers: Headers): Generator<string> {
  const limit = Number(headers.get('RateLimit-Limit'))
  const remaining = Number(headers.get('RateLimit-Remaining'))
  const reset = Number(headers.get('RateLimit-Reset'))
  if (!headers.has('RateLimit-Remaining') || !(limit > 0)) return
  if (remaining > Math.floor(limit / 4)) return
  yield `Only ${remaining} of ${limit} calls to GET /v1/rate-limits are left in this window (it resets in ${reset} s): keep the table and ask again when you need it, rather than before every call.`
}
