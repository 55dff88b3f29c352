import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { serve, type ServerType } from '@hono/node-server'
import type { AnyGeneratorEntry } from '@svc/engine/generate'
import { createSafeFetch, dnsResolver, parseAllowList } from '@svc/safe-fetch'
import type { StackIdentity } from './deps.js'
import { createServer } from './server.js'

export type StartOptions = {
  readonly generators: readonly AnyGeneratorEntry[]
  readonly identity: StackIdentity
  readonly env?: NodeJS.ProcessEnv
}

/**
 * Starts the stack server as `server.js` does: on `$PORT` (default 8080) and `$HOST` (default
 * 0.0.0.0), with source fetches guarded by `SVC_STACK_ALLOW_PRIVATE_NETWORKS` (CIDRs or exact
 * origins admitted) and resolved by `SVC_STACK_DNS_SERVERS` when set; `SVC_STACK_SOURCE_TIMEOUT_MS`
 * and `SVC_STACK_SOURCE_MAX_BYTES` lower or raise the source limits. SIGTERM and SIGINT stop
 * accepting connections, let requests in flight finish (10 s at most), then exit 0.
 */
export function startStackServer(options: StartOptions): ServerType {
  const env = options.env ?? process.env
  const port = Number(env.PORT ?? 8080)
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    console.error(`PORT must be a port number, not '${env.PORT}'`)
    process.exit(2)
  }
  const servers = (env.SVC_STACK_DNS_SERVERS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  let allow
  try {
    allow = parseAllowList(env.SVC_STACK_ALLOW_PRIVATE_NETWORKS)
  } catch (error) {
    console.error(`SVC_STACK_ALLOW_PRIVATE_NETWORKS: ${(error as Error).message}`)
    process.exit(2)
  }
  let resolve
  try {
    resolve = servers.length > 0 ? dnsResolver(servers) : undefined
  } catch (error) {
    console.error(`SVC_STACK_DNS_SERVERS: ${(error as Error).message}`)
    process.exit(2)
  }
  const fetch = createSafeFetch({
    allow,
    ...(resolve ? { resolve } : {}),
  })
  const limits = {
    ...(env.SVC_STACK_SOURCE_TIMEOUT_MS
      ? { timeoutMs: positive(env, 'SVC_STACK_SOURCE_TIMEOUT_MS') }
      : {}),
    ...(env.SVC_STACK_SOURCE_MAX_BYTES
      ? { maxBytes: positive(env, 'SVC_STACK_SOURCE_MAX_BYTES') }
      : {}),
  }
  const app = createServer({
    generators: options.generators,
    identity: options.identity,
    fetch,
    limits,
  })
  const server = serve({ fetch: app.fetch, port, hostname: env.HOST ?? '0.0.0.0' }, (info) => {
    console.log(
      JSON.stringify({
        msg: 'listening',
        stack: options.identity.name,
        version: options.identity.version,
        port: info.port,
      }),
    )
  })
  let stopping = false
  // Answers given while stopping say `Connection: close`: a kept-alive connection would hold the
  // exit until the client or the keep-alive timeout dropped it.
  const inFlight = new Set<ServerResponse>()
  const closeAfter = (response: ServerResponse) => {
    if (!response.headersSent) response.setHeader('connection', 'close')
  }
  ;(server as Server).on('request', (_request: IncomingMessage, response: ServerResponse) => {
    if (stopping) return closeAfter(response)
    inFlight.add(response)
    response.once('close', () => inFlight.delete(response))
  })
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    console.log(JSON.stringify({ msg: 'stopping', signal }))
    inFlight.forEach(closeAfter)
    const force = setTimeout(() => process.exit(0), 10_000)
    force.unref()
    server.close(() => {
      fetch.close()
      process.exit(0)
    })
    if ('closeIdleConnections' in server) server.closeIdleConnections()
  }
  process.once('SIGTERM', () => stop('SIGTERM'))
  process.once('SIGINT', () => stop('SIGINT'))
  return server
}

function positive(env: NodeJS.ProcessEnv, name: string): number {
  const value = Number(env[name])
  if (Number.isSafeInteger(value) && value > 0) return value
  console.error(`${name} must be a positive whole number, not '${env[name]}'`)
  process.exit(2)
}
