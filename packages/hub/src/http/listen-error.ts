import { ConfigError } from '../config-error.js'

/**
 * What to tell the operator when the hub cannot listen: the system's `listen EADDRINUSE …`
 * names neither the cause nor the setting to change, so the errors a setting causes become one
 * line naming `PORT` or `HOST` (a `ConfigError`, exit 1, like a bad value of either). Others stay
 * as they are.
 */
export function listenError(
  error: unknown,
  listen: { readonly host: string; readonly port: number },
): unknown {
  const code = (error as { code?: unknown } | null)?.code
  const { host, port } = listen
  const address = `${host.includes(':') ? `[${host}]` : host}:${port}`
  const privileged = port < 1024
  switch (code) {
    case 'EADDRINUSE':
      return new ConfigError(
        `${address} is in use by another program; start the hub on another port with PORT=${port < 65535 ? port + 1 : port - 1} (or HOST=… to listen elsewhere).`,
      )
    case 'EACCES':
      return new ConfigError(
        privileged
          ? `this process may not listen on ${address}: ports below 1024 need privileges; start the hub on another port with PORT=8080 (a reverse proxy in front of it can take port ${port}).`
          : `this process may not listen on ${address}; start the hub on another port with PORT=… (or HOST=… to listen elsewhere).`,
      )
    case 'EADDRNOTAVAIL':
      return new ConfigError(
        `cannot listen on ${address}: HOST=${host} is not an address of this machine; set HOST to one of its addresses (HOST=0.0.0.0 listens on all of them, the default 127.0.0.1 on this machine only).`,
      )
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new ConfigError(
        `cannot listen on ${address}: HOST=${host} is not a name this machine can resolve; set HOST to one of its addresses (HOST=0.0.0.0 listens on all of them, the default 127.0.0.1 on this machine only).`,
      )
    default:
      return error
  }
}
