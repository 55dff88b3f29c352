import { describe, expect, it } from 'vitest'
import { hubAdvice } from './advice.js'
import { HubError } from './hub-client.js'

const origin = 'https://hub.example.com'
const target = '@acme/billing-web'
const refused = new HubError('the hub answered HTTP 401 unauthorized: no', 401, 'unauthorized')
const forbidden = new HubError('the hub answered HTTP 403 insufficient_scope: no', 403)
const missing = new HubError('the hub answered HTTP 404 not_found: no', 404, 'not_found')
const down = new HubError(`cannot reach the hub at ${origin} (ECONNREFUSED)`)

describe('hubAdvice', () => {
  it("gives push the fix for each status it knows, and the hub client's words otherwise", () => {
    expect(hubAdvice('push', missing, { origin, target })).toBe(
      `the project ${target} does not exist on ${origin}; create it in the web app first (svc push never creates one)`,
    )
    expect(hubAdvice('push', forbidden, { origin, target })).toBe(
      `not allowed to write ${target} (${forbidden.message}); the token needs write:projects and write access to the project`,
    )
    expect(hubAdvice('push', refused, { origin, target })).toBe(
      `the hub refused the token (${refused.message}); run svc login again or pass --token`,
    )
    expect(hubAdvice('push', down, { origin, target })).toBe(down.message)
  })

  it('puts "cannot pull <project>:" before every failure of pull but the 404', () => {
    expect(hubAdvice('pull', missing, { origin, target })).toBe(
      `the project ${target} does not exist on ${origin}`,
    )
    expect(hubAdvice('pull', forbidden, { origin, target })).toBe(
      `cannot pull ${target}: ${forbidden.message}`,
    )
  })

  it('tells login that nothing was stored, whatever went wrong', () => {
    expect(hubAdvice('login', refused, { origin })).toBe(
      `the hub at ${origin} refused the token (401): nothing was stored`,
    )
    expect(hubAdvice('login', down, { origin })).toBe(
      `cannot check the token: ${down.message}; nothing was stored`,
    )
  })

  it('names the scope each api subcommand needs, and svc api create for a missing API', () => {
    const api = 'acme/payments'
    expect(hubAdvice('api push', forbidden, { origin, target: api })).toBe(
      `not allowed (${forbidden.message}); the token needs the scope write:apis and write access on the owner of ${api}`,
    )
    expect(hubAdvice('api webhooks', forbidden, { origin, target: api })).toContain(
      'the token needs the scope admin:webhooks',
    )
    expect(hubAdvice('api push', missing, { origin, target: api })).toBe(
      `the API ${api} does not exist on ${origin}, or the token cannot read it (${missing.message}); create it with svc api create ${api}, or list them with svc api list`,
    )
    expect(hubAdvice('projects list', refused, { origin })).toBe(
      `the hub refused the token (${refused.message}); run svc login again or pass --token`,
    )
  })
  it("passes a status it has no entry for, or an error that is not the hub's, through", () => {
    expect(hubAdvice('publish', refused, { origin })).toBe(refused.message)
    expect(hubAdvice('whoami', new Error('socket hang up'), { origin })).toBe('socket hang up')
  })
})
