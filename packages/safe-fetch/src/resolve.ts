import { lookup, Resolver as DnsResolver } from 'node:dns/promises'

/** One address a hostname resolves to. */
export type ResolvedAddress = { address: string; family: 4 | 6 }

/** Resolves a hostname to every address it may connect to; rejects when the name does not resolve. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>

/** The default resolver: the system's `getaddrinfo` through `dns.promises.lookup`, all addresses. */
export const systemResolver: Resolver = async function systemResolver(hostname) {
  const found = await lookup(hostname, { all: true })
  return found.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }))
}

/**
 * A resolver that asks the given DNS servers (`1.1.1.1`, `[::1]:5353`) for A and AAAA records
 * instead of the system's `getaddrinfo`: the addresses it returns are the ones checked and
 * connected to. For operators who want the guard's view of DNS pinned to known resolvers.
 */
export function dnsResolver(servers: readonly string[]): Resolver {
  const resolver = new DnsResolver()
  resolver.setServers([...servers])
  const records = async (family: 4 | 6, hostname: string): Promise<ResolvedAddress[]> => {
    try {
      const found =
        family === 4 ? await resolver.resolve4(hostname) : await resolver.resolve6(hostname)
      return found.map((address) => ({ address, family }))
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'ENODATA' || code === 'ENOTFOUND') return []
      throw error
    }
  }
  return async function resolveWithServers(hostname) {
    const [v4, v6] = await Promise.all([records(4, hostname), records(6, hostname)])
    const all = [...v4, ...v6]
    if (all.length === 0) {
      const error: NodeJS.ErrnoException = new Error(`${hostname} does not resolve`)
      error.code = 'ENOTFOUND'
      throw error
    }
    return all
  }
}
