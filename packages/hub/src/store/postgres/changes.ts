import pg from 'pg'

/** The channel the `tokens` trigger notifies (migration 0011-token-changes). */
export const TOKEN_CHANGES_CHANNEL = 'svc_token_changes'

/** Pause before listening again after the connection was lost, doubling up to the maximum. */
const RETRY_MS = 500
const MAX_RETRY_MS = 5_000

/** The channel the triggers of the tables hubs keep reads of notify (0012-store-changes). */
export const STORE_CHANGES_CHANNEL = 'svc_store_changes'

/** How many notices came on each channel; undefined while not listening. */
export type ChangeNotices = {
  version(channel: string): number | undefined
  close(): Promise<void>
}

/**
 * Listens on `channels` on one connection of its own. Each channel's version moves with each of
 * its notifications for `schema`, and every version with each new connection (what was missed
 * while it was down is unknown); all are undefined while not listening, so that nothing is
 * cached then.
 */
export async function listenForChanges(
  config: pg.ClientConfig,
  schema: string,
  channels: readonly string[],
): Promise<ChangeNotices> {
  const versions = new Map(channels.map((channel) => [channel, 0]))
  const bumpAll = () => {
    for (const [channel, version] of versions) versions.set(channel, version + 1)
  }
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
      const version = versions.get(message.channel)
      if (message.payload === schema && version !== undefined) {
        versions.set(message.channel, version + 1)
      }
    })
    try {
      await next.connect()
      for (const channel of channels) await next.query(`listen ${channel}`)
    } catch {
      lost()
      return
    }
    if (client !== next) return
    bumpAll()
    listening = true
    retryMs = RETRY_MS
  }

  await connect()
  return {
    version: (channel) => (listening ? versions.get(channel) : undefined),
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
