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
    expect(hubAdvice('push', down, { origin, target })).toMatch(
      /^cannot reach the hub .*; is the hub running/,
    )
  })

  it('puts "cannot pull <project>:" before every failure of pull but the 404', () => {
    expect(hubAdvice('pull', missing, { origin, target })).toBe(
      `the project ${target} does not exist on ${origin}`,
    )
    expect(hubAdvice('pull', forbidden, { origin, target })).toBe(
      `cannot pull ${target}: not allowed to do this to ${target} (${forbidden.message}); the token needs read or write:projects and access to the account`,
    )
  })

  it('tells login where to make a token and that nothing was stored, whatever went wrong', () => {
    expect(hubAdvice('login', refused, { origin })).toBe(
      `the hub at ${origin} refused the token (HTTP 401 unauthorized: no); make one at ${origin}/settings/tokens; nothing was stored`,
    )
    expect(hubAdvice('login', down, { origin })).toMatch(
      new RegExp(
        `^cannot check the token: ${escape(down.message)}; is the hub running.*; nothing was stored$`,
      ),
    )
  })

  it('gives publish and whoami the same advice for a refused token as push', () => {
    for (const command of ['publish', 'whoami'] as const)
      expect(hubAdvice(command, refused, { origin })).toBe(
        `the hub refused the token (${refused.message}); run svc login again or pass --token`,
      )
    expect(hubAdvice('publish', forbidden, { origin, target: '@acme/stack' })).toContain(
      'the token needs write:releases',
    )
    const exists = new HubError('the hub answered HTTP 409 version_exists: it is published', 409)
    expect(hubAdvice('publish', exists, { origin })).toBe(
      `${exists.message} (raise "version" in deno.json, or pass --version)`,
    )
    expect(hubAdvice('publish', missing, { origin, target: '@local/demo' })).toBe(
      `@local/demo does not exist on ${origin} (${missing.message})`,
    )
  })

  it('has words for a busy, failing or silent hub shared by every command', () => {
    const busy = new HubError('the hub answered HTTP 429 rate_limited', 429)
    const broken = new HubError('the hub answered HTTP 503', 503)
    expect(hubAdvice('whoami', busy, { origin })).toContain('wait a minute and run it again')
    expect(hubAdvice('publish', broken, { origin })).toContain('the hub failed')
    expect(hubAdvice('whoami', down, { origin })).toBe(
      `${down.message}; is the hub running, and are --origin, $SVC_API_ORIGIN or the login right?`,
    )
  })

  it('says what is wrong with a malformed svc_pat_ token the hub refused', () => {
    const advice = hubAdvice('publish', refused, { origin, token: 'svc_pat_abc' })
    expect(advice).toBe(
      'the hub refused the token (HTTP 401: the token starts with svc_pat_ but has 3 characters after svc_pat_ where a personal access token has 43: was it copied whole?); run svc login again or pass --token',
    )
    expect(advice).not.toContain('svc_pat_abc')
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

  it("passes an error that is not the hub's through", () => {
    expect(hubAdvice('whoami', new Error('socket hang up'), { origin })).toBe('socket hang up')
  })
})

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
