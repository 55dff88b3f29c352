import pg from 'pg'
import type { TokenChangeFeed } from '../token-cache.js'

/** The channel the `tokens` trigger notifies (migration 0011-token-changes). */
export const TOKEN_CHANGES_CHANNEL = 'svc_token_changes'

/** Pause before listening again after the connection was lost, doubling up to the maximum. */
const RETRY_MS = 500
const MAX_RETRY_MS = 5_000

/** The channel the triggers of the tables hubs keep reads of notify (0012-store-changes). */
export const STORE_CHANGES_CHANNEL = 'svc_store_changes'

/**
 * Listens for the notifications the `tokens` trigger sends on every change of a token, by any
 * process, on a connection of its own.
 */
export function listenForTokenChanges(
  config: pg.ClientConfig,
  schema: string,
): Promise<TokenChangeFeed> {
  return listenForChanges(config, schema, TOKEN_CHANGES_CHANNEL)
}

/**
 * Listens on `channel` on a connection of its own. The version moves with each notification for
 * `schema` and each new connection (what was missed while it was down is unknown), and is
 * undefined while not listening, so that nothing is cached then.
 */
export async function listenForChanges(
  config: pg.ClientConfig,
  schema: string,
  channel: string,
): Promise<TokenChangeFeed> {
  let version = 0
  let listening = false
  let closed = false
  let client: pg.Client | undefined
  let timer: NodeJS.Timeout | undefined
  let retryMs = RETRY_MS

  const connect = async (): Promise<void> => {
    const next = new pg.Client(config)
    client = next
    const lost = () => {
      if (client !== next) return
      listening = false
      client = undefined
      next.end().catch(() => {})
      if (!closed) timer = setTimeout(() => void connect(), retryMs)
      retryMs = Math.min(retryMs * 2, MAX_RETRY_MS)
    }
    next.on('error', lost)
    next.on('end', lost)
    // The payload is the schema of the table that changed: other hubs' schemas on the same
    // database (tests, tenants) notify the same channel.
    next.on('notification', (message) => {
      if (message.payload === schema) version++
    })
    try {
      await next.connect()
      await next.query(`listen ${channel}`)
    } catch {
      lost()
      return
    }
    if (client !== next) return
    version++
    listening = true
    retryMs = RETRY_MS
  }

  await connect()
  return {
    version: () => (listening ? version : undefined),
    close: async () => {
      closed = true
      clearTimeout(timer)
      listening = false
      const last = client
      client = undefined
      await last?.end().catch(() => {})
    },
  }
}
