/** A source URL the server must refuse, and the words of its refusal (the range or the rule). */
export type HostileUrl = readonly [url: string, reason: string]

/**
 * Source URLs that pass the request schema (http or https) and that the guard refuses before
 * connecting: `port` is a loopback port listening on 127.0.0.1 and [::1], so a connection to any
 * loopback spelling would be counted there. The others point where nothing should ever go.
 */
export const hostileUrls = (port: number): readonly HostileUrl[] => [
  // every spelling of loopback
  [`http://127.0.0.1:${port}/`, '127.0.0.1 is loopback'],
  [`https://127.0.0.1:${port}/`, '127.0.0.1 is loopback'],
  [`http://127.1:${port}/`, '127.0.0.1 is loopback'],
  [`http://2130706433:${port}/`, '127.0.0.1 is loopback'],
  [`http://0x7f.1:${port}/`, '127.0.0.1 is loopback'],
  [`http://0177.0.0.1:${port}/`, '127.0.0.1 is loopback'],
  [`http://%31%32%37.0.0.1:${port}/`, '127.0.0.1 is loopback'],
  [`http://127.0.0.1.:${port}/`, '127.0.0.1 is loopback'],
  [`http://[::1]:${port}/`, '::1 is loopback'],
  [`http://[::ffff:127.0.0.1]:${port}/`, '127.0.0.1 is loopback'],
  [`http://localhost:${port}/`, 'localhost is a reserved hostname'],
  [`http://a.localhost:${port}/`, 'a.localhost is a reserved hostname'],
  // unspecified: on Linux 0.0.0.0 and :: reach the local host
  [`http://0.0.0.0:${port}/`, '0.0.0.0 is unspecified'],
  [`http://[::]:${port}/`, ':: is unspecified'],
  // private networks
  ['http://10.0.0.1/', '10.0.0.1 is private'],
  ['http://172.16.0.1/', '172.16.0.1 is private'],
  ['http://192.168.1.1/', '192.168.1.1 is private'],
  ['http://100.64.0.1/', '100.64.0.1 is carrierGradeNat'],
  ['http://[fc00::1]/', 'fc00::1 is uniqueLocal'],
  // link-local and cloud metadata
  ['http://169.254.169.254/latest/meta-data/', '169.254.169.254 is linkLocal'],
  ['http://[fe80::1]/', 'fe80::1 is linkLocal'],
  ['http://metadata.internal/', 'metadata.internal is a reserved hostname'],
  [
    'http://metadata.google.internal/computeMetadata/v1/',
    'metadata.google.internal is a reserved hostname',
  ],
  // mDNS
  ['http://printer.local/', 'printer.local is a reserved hostname'],
  // credentials would travel to every hop
  ['http://user:pass@example.com/', 'a URL with credentials is not fetched'],
  [`http://user:pass@127.0.0.1:${port}/`, 'a URL with credentials is not fetched'],
]

/** Source URLs the request schema refuses (only http and https are sources): 400 at validation. */
export const nonHttpUrls = (port: number): readonly string[] => [
  'ftp://example.com/x',
  'file:///etc/passwd',
  `gopher://127.0.0.1:${port}/_GET%20/`,
  `ws://127.0.0.1:${port}/`,
  'data:application/json,{}',
]
