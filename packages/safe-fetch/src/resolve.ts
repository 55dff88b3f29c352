import { lookup } from 'node:dns/promises'

/** One address a hostname resolves to. */
export type ResolvedAddress = { address: string; family: 4 | 6 }

/** Resolves a hostname to every address it may connect to; rejects when the name does not resolve. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>

/** The default resolver: the system's `getaddrinfo` through `dns.promises.lookup`, all addresses. */
export const systemResolver: Resolver = async function systemResolver(hostname) {
  const found = await lookup(hostname, { all: true })
  return found.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }))
}
