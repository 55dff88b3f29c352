import { describe, expect, it } from 'vitest'
import { resolveClientAddress, type ProxySettings } from './client-address.js'
import type { ClientAddressHeader } from './forwarded-hops.js'
import { parseTrustedProxies } from './trusted-proxies.js'

const settings = (trusted: string, header: ClientAddressHeader = 'x-forwarded-for') =>
  ({ trusted: parseTrustedProxies(trusted), header }) satisfies ProxySettings

/** [case, trusted proxies, header, socket peer, header value, client address]. */
type Case = readonly [string, string, ClientAddressHeader, string, string | undefined, string]

const X = 'x-forwarded-for'
const F = 'forwarded'
const R = 'x-real-ip'

const CASES: readonly Case[] = [
  // Nobody trusted (the default): the peer, whatever the headers say.
  ['no trusted proxy: the peer', '', X, '203.0.113.9', '198.51.100.7', '203.0.113.9'],
  [
    'untrusted peer: its header is ignored',
    '10.0.0.0/8',
    X,
    '203.0.113.9',
    '198.51.100.7',
    '203.0.113.9',
  ],
  ['trusted peer, no header: the peer', '10.0.0.0/8', X, '10.0.0.2', undefined, '10.0.0.2'],
  ['trusted peer: its client', '10.0.0.0/8', X, '10.0.0.2', '198.51.100.7', '198.51.100.7'],
  // Walk from the right: what the client claimed before the first trusted hop does not count.
  [
    'forged left part ignored',
    '10.0.0.0/8',
    X,
    '10.0.0.2',
    '6.6.6.6, 198.51.100.7',
    '198.51.100.7',
  ],
  [
    'two trusted hops',
    '10.0.0.0/8',
    X,
    '10.0.0.2',
    '6.6.6.6, 198.51.100.7, 10.0.0.3',
    '198.51.100.7',
  ],
  [
    'every hop trusted: the leftmost',
    'private',
    X,
    '10.0.0.2',
    '192.168.1.4, 10.0.0.3',
    '192.168.1.4',
  ],
  [
    'spaces and repeats joined',
    '10.0.0.0/8',
    X,
    '10.0.0.2',
    ' 6.6.6.6 ,198.51.100.7 ',
    '198.51.100.7',
  ],
  ['IPv6 hop', 'loopback', X, '::1', '2001:db8::17', '2001:db8::17'],
  ['bracketed IPv6 with port', 'loopback', X, '127.0.0.1', '[2001:db8::17]:4711', '2001:db8::17'],
  ['IPv4 with port', 'loopback', X, '127.0.0.1', '198.51.100.7:51234', '198.51.100.7'],
  // IPv4-mapped IPv6 is the IPv4 address, for the peer, the hops and the trusted list.
  [
    'mapped peer matches an IPv4 CIDR',
    '127.0.0.1',
    X,
    '::ffff:127.0.0.1',
    '198.51.100.7',
    '198.51.100.7',
  ],
  ['mapped hop normalised', 'loopback', X, '127.0.0.1', '::ffff:198.51.100.7', '198.51.100.7'],
  ['mapped peer, nobody trusted', '', X, '::ffff:203.0.113.9', '198.51.100.7', '203.0.113.9'],
  ['mapped CIDR in the list', '::ffff:10.0.0.0/104', X, '10.0.0.2', '198.51.100.7', '198.51.100.7'],
  // Malformed hops end the walk at the proxy that wrote them: never a made-up client.
  ['garbage hop: the proxy', 'loopback', X, '127.0.0.1', 'not-an-address', '127.0.0.1'],
  [
    'garbage left of a good hop is never reached',
    'loopback',
    X,
    '127.0.0.1',
    'junk, 198.51.100.7',
    '198.51.100.7',
  ],
  ['empty header: the proxy', 'loopback', X, '127.0.0.1', '', '127.0.0.1'],
  ['inet_aton spelling is no address', 'loopback', X, '127.0.0.1', '2130706433', '127.0.0.1'],
  ['short IPv4 is no address', 'loopback', X, '127.0.0.1', '127.1', '127.0.0.1'],
  ['a name is no address', 'loopback', X, '127.0.0.1', 'evil.example', '127.0.0.1'],
  ['IPv4 in brackets is no address', 'loopback', X, '127.0.0.1', '[198.51.100.7]', '127.0.0.1'],
  ['bad port', 'loopback', X, '127.0.0.1', '198.51.100.7:port', '127.0.0.1'],
  // RFC 7239 Forwarded.
  ['Forwarded for=', 'loopback', F, '127.0.0.1', 'for=198.51.100.7;proto=https', '198.51.100.7'],
  [
    'Forwarded quoted IPv6 and port',
    'loopback',
    F,
    '127.0.0.1',
    'for="[2001:db8:cafe::17]:4711"',
    '2001:db8:cafe::17',
  ],
  [
    'Forwarded case-insensitive name',
    'loopback',
    F,
    '127.0.0.1',
    'For=198.51.100.7',
    '198.51.100.7',
  ],
  [
    'Forwarded chain from the right',
    'loopback',
    F,
    '127.0.0.1',
    'for=6.6.6.6, for=198.51.100.7;by=127.0.0.1',
    '198.51.100.7',
  ],
  [
    'Forwarded obfuscated port',
    'loopback',
    F,
    '127.0.0.1',
    'for="198.51.100.7:_abc"',
    '198.51.100.7',
  ],
  ['Forwarded obfuscated node: the proxy', 'loopback', F, '127.0.0.1', 'for=_hidden', '127.0.0.1'],
  ['Forwarded unknown: the proxy', 'loopback', F, '127.0.0.1', 'for=unknown', '127.0.0.1'],
  [
    'Forwarded without for: the proxy',
    'loopback',
    F,
    '127.0.0.1',
    'proto=https;host=hub.example',
    '127.0.0.1',
  ],
  [
    'Forwarded malformed: the proxy',
    'loopback',
    F,
    '127.0.0.1',
    'for="198.51.100.7, for=6.6.6.6',
    '127.0.0.1',
  ],
  [
    'Forwarded unquoted IPv6 is malformed',
    'loopback',
    F,
    '127.0.0.1',
    'for=[2001:db8::1]',
    '127.0.0.1',
  ],
  [
    'Forwarded from an untrusted peer',
    'loopback',
    F,
    '203.0.113.9',
    'for=198.51.100.7',
    '203.0.113.9',
  ],
  // X-Real-IP: one address.
  ['X-Real-IP', 'loopback', R, '127.0.0.1', '198.51.100.7', '198.51.100.7'],
  [
    'X-Real-IP repeated: the rightmost',
    'loopback',
    R,
    '127.0.0.1',
    '6.6.6.6, 198.51.100.7',
    '198.51.100.7',
  ],
  ['X-Real-IP from an untrusted peer', '10.0.0.0/8', R, '127.0.0.1', '198.51.100.7', '127.0.0.1'],
  // A single address entry and keywords.
  ['single address entry', '127.0.0.1', X, '127.0.0.1', '198.51.100.7', '198.51.100.7'],
  ['single address, another peer', '127.0.0.1', X, '127.0.0.2', '198.51.100.7', '127.0.0.2'],
  ['linklocal keyword', 'linklocal', X, 'fe80::1', '198.51.100.7', '198.51.100.7'],
]

describe('resolveClientAddress', () => {
  it.each(CASES)('%s', (_name, trusted, header, peer, value, expected) => {
    expect(resolveClientAddress(peer, value, settings(trusted, header))).toBe(expected)
  })

  it('is `unknown` without a peer, and the peer as given when it is no address', () => {
    expect(resolveClientAddress(undefined, '198.51.100.7', settings('loopback'))).toBe('unknown')
    expect(resolveClientAddress('/run/hub.sock', '198.51.100.7', settings('loopback'))).toBe(
      '/run/hub.sock',
    )
  })
})
