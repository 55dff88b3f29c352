import { Hono } from 'hono'
import pino from 'pino'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openFreshStore } from '../../test/support/databases.js'
import { ApiError, renderError } from '../errors/index.js'
import type { HubEnv, HubServices } from '../http/env.js'
import type { Store } from '../store/store.js'
import { FAILED_CREDENTIALS, spendingCredentialAttempt } from './failed-credentials.js'
import { RateLimits } from './rate-limits.js'
import { readRateLimitSettings, type RateLimitSettings } from './settings.js'

const log = pino({ enabled: false })

function settings(): RateLimitSettings {
  const read = readRateLimitSettings('', 0)
  if (typeof read === 'string') throw new Error(read)
  return read
}

/**
 * A route whose credential check is the `x-credential` header: `bad` is refused as an unknown
 * token, `good` is accepted once `gate` resolves (a lookup still in flight until then).
 */
function appWith(rateLimits: RateLimits, gate: () => Promise<void>) {
  const app = new Hono<HubEnv>()
  app.use('*', async (c, next) => {
    c.set('requestId', 'req_test')
    c.set('log', log)
    c.set('hub', { rateLimits } as HubServices)
    // What requestContext sets: a request the app was handed in-process has no address.
    c.set('client', { address: 'unknown', local: false })
    await next()
  })
  app.get('/v1/user', async (c) => {
    await spendingCredentialAttempt(c, async () => {
      if (c.req.header('x-credential') === 'bad') {
        throw new ApiError('unauthorized', 'The token is not valid.')
      }
      await gate()
    })
    return c.json({})
  })
  app.onError(renderError)
  return app
}

describe('the failed-credential budget', () => {
  let store: Store
  let cleanup: () => Promise<void>
  beforeEach(async () => {
    ;({ store, cleanup } = await openFreshStore('sqlite'))
  })
  afterEach(() => cleanup())

  it('does not count the requests it refuses: valid credentials sent at once past the budget leave it as it was', async () => {
    let open!: () => void
    const opened = new Promise<void>((resolve) => (open = resolve))
    const app = appWith(new RateLimits(settings(), store, log), () => opened)
    const as = (credential: string) =>
      app.request('/v1/user', { headers: { 'x-credential': credential } })

    for (let i = 1; i < FAILED_CREDENTIALS.max; i++) expect((await as('bad')).status).toBe(401)
    // One valid lookup in flight holds the last attempt; the two after it are refused at once.
    const inFlight = as('good')
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect((await as('good')).status).toBe(429)
    expect((await as('good')).status).toBe(429)
    open()
    expect((await inFlight).status).toBe(200)

    // 59 failures are counted, not 61: a valid credential is still let through, and so is one
    // more bad one (the 60th), after which the budget is spent.
    expect((await as('good')).status).toBe(200)
    expect((await as('bad')).status).toBe(401)
    expect((await as('good')).status).toBe(429)
  })
})
