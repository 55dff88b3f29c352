import { describe, expect, it } from 'vitest'
import { ConfigError, isLoopbackHost, loadConfig } from './config.js'

describe('the outbound mode', () => {
  const mode = (env: NodeJS.ProcessEnv, listens?: boolean) => {
    const config = loadConfig(env, listens === undefined ? {} : { listens })
    return [config.host, config.outboundMode, config.allowPrivateNetworks.toString()]
  }

  it('is a local trial by default: bound to 127.0.0.1, public URL http://localhost:<port>', () => {
    expect(mode({})).toEqual(['127.0.0.1', 'local-trial', 'loopback'])
    expect(mode({ SVC_HUB_ALLOW_PRIVATE_NETWORKS: '10.0.0.0/8' })).toEqual([
      '127.0.0.1',
      'local-trial',
      '10.0.0.0/8,loopback',
    ])
  })

  it('stays a local trial for any loopback HOST and loopback public URL', () => {
    for (const HOST of ['127.0.0.1', '127.0.0.2', '::1', 'localhost'])
      for (const SVC_HUB_PUBLIC_URL of [
        'http://localhost:8080',
        'http://127.0.0.1:9000',
        'http://[::1]:8080',
        'http://hub.localhost',
      ])
        expect(mode({ HOST, SVC_HUB_PUBLIC_URL })[1], `${HOST} ${SVC_HUB_PUBLIC_URL}`).toBe(
          'local-trial',
        )
  })

  it('is strict when exposed, behind a public URL, or for svc-hub worker', () => {
    expect(mode({ HOST: '0.0.0.0' })).toEqual(['0.0.0.0', 'strict', ''])
    expect(mode({ HOST: '::' })[1]).toBe('strict')
    expect(mode({ HOST: '192.0.2.2' })[1]).toBe('strict')
    expect(mode({ SVC_HUB_PUBLIC_URL: 'https://hub.example.com' })[1]).toBe('strict')
    expect(mode({ SVC_HUB_PUBLIC_URL: 'http://192.168.1.5:8080' })[1]).toBe('strict')
    expect(mode({}, false)).toEqual(['127.0.0.1', 'strict', ''])
  })
})

describe('isLoopbackHost', () => {
  it.each([
    ['localhost', true],
    ['LOCALHOST.', true],
    ['hub.localhost', true],
    ['127.0.0.1', true],
    ['127.255.0.9', true],
    ['::1', true],
    ['[::1]', true],
    ['0.0.0.0', false],
    ['::', false],
    ['128.0.0.1', false],
    ['localhost.example.com', false],
    ['hub.example.com', false],
  ])('%s → %s', (host, loopback) => expect(isLoopbackHost(host)).toBe(loopback))
})

describe('the proxy settings', () => {
  it('trust nobody and read X-Forwarded-For by default', () => {
    const { proxies } = loadConfig({})
    expect([proxies.trusted.toString(), proxies.header]).toEqual(['none', 'x-forwarded-for'])
  })

  it('read SVC_HUB_TRUSTED_PROXIES and SVC_HUB_CLIENT_ADDRESS_HEADER', () => {
    const { proxies } = loadConfig({
      SVC_HUB_TRUSTED_PROXIES: 'loopback, 10.0.0.0/8',
      SVC_HUB_CLIENT_ADDRESS_HEADER: 'Forwarded',
    })
    expect([proxies.trusted.toString(), proxies.header]).toEqual([
      'loopback,10.0.0.0/8',
      'forwarded',
    ])
  })

  it('refuse an entry or a header the hub does not know, naming the setting', () => {
    expect(() => loadConfig({ SVC_HUB_TRUSTED_PROXIES: 'loopback,proxy.example' })).toThrow(
      new ConfigError(
        "SVC_HUB_TRUSTED_PROXIES: 'proxy.example' is not an address, a CIDR (10.0.0.0/8, fd00::/8) nor one of loopback, private, linklocal",
      ),
    )
    expect(() => loadConfig({ SVC_HUB_TRUSTED_PROXIES: '10.0.0.0/40' })).toThrow(ConfigError)
    expect(() => loadConfig({ SVC_HUB_CLIENT_ADDRESS_HEADER: 'x-client-ip' })).toThrow(
      new ConfigError(
        "SVC_HUB_CLIENT_ADDRESS_HEADER must be one of x-forwarded-for, forwarded, x-real-ip, got 'x-client-ip'",
      ),
    )
  })
})
