import type { ApiModel, Server } from '@svc/engine'

/** The URL of the first server, its variables at their defaults, when it is absolute. */
export function defaultBaseUrl(model: ApiModel): string | undefined {
  return model.protocol === 'oas' ? absoluteUrl(model.servers[0]) : undefined
}

export function absoluteUrl(server: Server | undefined): string | undefined {
  if (server === undefined) return undefined
  const url = server.url.replace(/\{([^{}]*)\}/g, (variable, name: string) =>
    server.variables && Object.hasOwn(server.variables, name)
      ? server.variables[name]!.default
      : variable,
  )
  return /^[a-z][a-z0-9+.-]*:\/\/[^{}]+$/i.test(url) ? url : undefined
}
