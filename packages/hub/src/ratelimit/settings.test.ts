import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../config.js'
import { readRateLimitSettings } from './settings.js'
import { DEFAULT_RATE_LIMITS, defaultLimit } from './table.js'

describe('SVC_HUB_RATE_LIMITS', () => {
  it('unset: the default table, limiting on', () => {
    const settings = readRateLimitSettings(undefined, 10)
    expect(settings).toEqual({
      enabled: true,
      defaults: DEFAULT_RATE_LIMITS,
      overrideCacheMs: 10_000,
    })
  })

  it('`off` turns limiting off', () => {
    expect(readRateLimitSettings(' off ', 0)).toMatchObject({ enabled: false })
  })

  it('rows replace rows of the table, in place', () => {
    const settings = readRateLimitSettings(
      'GET /v1/user=20/60, post /v1/apis/{owner}/{slug}/revisions = 5 / 3600',
      10,
    )
    if (typeof settings === 'string') throw new Error(settings)
    expect(settings.defaults).toHaveLength(DEFAULT_RATE_LIMITS.length)
    const find = (method: string, path: string) =>
      settings.defaults.find((r) => r.method === method && r.path === path)
    expect(find('GET', '/v1/user')).toEqual({
      method: 'GET',
      path: '/v1/user',
      max: 20,
      windowSeconds: 60,
    })
    expect(find('POST', '/v1/apis/{owner}/{slug}/revisions')).toMatchObject({
      max: 5,
      windowSeconds: 3600,
    })
    expect(find('GET', '/v1/apis')).toEqual(defaultLimit('GET', '/v1/apis'))
  })

  it('refuses what is not a row of the table or not a limit', () => {
    expect(readRateLimitSettings('GET /v1/nope=5/60', 10)).toBe(
      "'GET /v1/nope' is not a route of the rate-limit table",
    )
    expect(readRateLimitSettings('GET /v1/apis/acme/x=5/60', 10)).toMatch(/not a route/)
    expect(readRateLimitSettings('GET /v1/user=5', 10)).toMatch(/is not 'METHOD \/path=max/)
    expect(readRateLimitSettings('GET /v1/user=0/60', 10)).toMatch(/max must be a whole number/)
    expect(readRateLimitSettings('GET /v1/user=5/0', 10)).toMatch(/the window must be/)
    expect(readRateLimitSettings('GET /v1/user=5/86401', 10)).toMatch(/the window must be/)
  })

  it('loadConfig stops on a bad value, and reads REDIS_URL', () => {
    expect(() => loadConfig({ SVC_HUB_RATE_LIMITS: 'GET /v1/user=-1/60' })).toThrow(ConfigError)
    expect(() => loadConfig({ REDIS_URL: 'http://localhost:6379' })).toThrow(
      'REDIS_URL must be a redis:// or rediss:// URL',
    )
    const config = loadConfig({
      REDIS_URL: 'redis://127.0.0.1:6379/2',
      SVC_HUB_RATE_LIMIT_CACHE_SECONDS: '0',
    })
    expect(config.redisUrl).toBe('redis://127.0.0.1:6379/2')
    expect(config.rateLimits.overrideCacheMs).toBe(0)
    expect(loadConfig({}).redisUrl).toBeUndefined()
  })
})
