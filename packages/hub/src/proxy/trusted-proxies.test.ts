import ipaddr from 'ipaddr.js'
import { describe, expect, it } from 'vitest'
import { parseTrustedProxies, TrustedProxiesError } from './trusted-proxies.js'

const trusts = (list: string, address: string) =>
  parseTrustedProxies(list).trusts(ipaddr.process(address))

describe('parseTrustedProxies', () => {
  it('trusts nobody when empty', () => {
    for (const text of [undefined, '', ' , '])
      expect(parseTrustedProxies(text)).toMatchObject({ none: true })
    expect(parseTrustedProxies('').toString()).toBe('none')
    expect(trusts('', '127.0.0.1')).toBe(false)
  })

  it('reads addresses, CIDRs and keywords, normalised for the start-up line', () => {
    const list = parseTrustedProxies(' Loopback, 10.1.0.0/16 ,2001:DB8::7')
    expect(list.none).toBe(false)
    expect(list.toString()).toBe('loopback,10.1.0.0/16,2001:db8::7')
    expect(trusts('loopback', '127.9.9.9')).toBe(true)
    expect(trusts('loopback', '::1')).toBe(true)
    expect(trusts('loopback', '10.0.0.1')).toBe(false)
    expect(trusts('private', '172.20.1.1')).toBe(true)
    expect(trusts('private', 'fd00::1')).toBe(true)
    expect(trusts('private', '172.32.0.1')).toBe(false)
    expect(trusts('linklocal', '169.254.1.1')).toBe(true)
    expect(trusts('10.1.0.0/16', '10.1.200.3')).toBe(true)
    expect(trusts('10.1.0.0/16', '10.2.0.1')).toBe(false)
    expect(trusts('2001:db8::7', '2001:db8::7')).toBe(true)
    expect(trusts('2001:db8::7', '2001:db8::8')).toBe(false)
  })

  it('matches IPv4 peers that arrive IPv4-mapped, and mapped entries', () => {
    expect(trusts('127.0.0.1', '::ffff:127.0.0.1')).toBe(true)
    expect(trusts('::ffff:10.0.0.0/104', '10.0.0.9')).toBe(true)
    expect(trusts('::ffff:10.0.0.1', '10.0.0.1')).toBe(true)
  })

  it('refuses what is no address, CIDR or keyword, naming the entry', () => {
    for (const entry of ['proxy.example', '127.1', '10.0.0.0/33', '10.0.0.0/', '[::1]', 'all', '*'])
      expect(() => parseTrustedProxies(`loopback,${entry}`), entry).toThrow(TrustedProxiesError)
    expect(() => parseTrustedProxies('everyone')).toThrow(
      "'everyone' is not an address, a CIDR (10.0.0.0/8, fd00::/8) nor one of loopback, private, linklocal",
    )
  })
})
