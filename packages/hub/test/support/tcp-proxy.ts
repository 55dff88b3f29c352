import net from 'node:net'

/**
 * A TCP proxy a test puts between the hub and PostgreSQL, to break the network on cue: `cut()`
 * resets every connection and refuses new ones (a database restart, a failover); `partition()`
 * stops every byte both ways while connections stay open (a network that drops packets).
 */
export type TcpProxy = {
  /** `127.0.0.1:<port>`: where clients connect instead of the target. */
  readonly host: string
  cut(): void
  partition(): void
  /** Connections refused so far while cut. */
  refused(): number
  /** Ends a cut or a partition: what was held back flows on, new connections go through. */
  heal(): void
  close(): Promise<void>
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: 'open' | 'cut' | 'partition' = 'open'
  let refused = 0
  const pairs = new Set<readonly [net.Socket, net.Socket]>()

  const server = net.createServer((client) => {
    if (mode === 'cut') {
      refused++
      client.resetAndDestroy()
      return
    }
    const upstream = net.connect(target.port, target.host)
    const pair = [client, upstream] as const
    pairs.add(pair)
    const end = () => {
      pairs.delete(pair)
      client.destroy()
      upstream.destroy()
    }
    client.on('error', end).on('close', end)
    upstream.on('error', end).on('close', end)
    client.pipe(upstream)
    upstream.pipe(client)
    if (mode === 'partition') hold(pair)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo

  // Unpiping leaves what is in flight in the kernel's buffers: nothing reaches the other side
  // until `heal()` pipes again, as when packets are dropped and later retransmitted.
  const hold = ([client, upstream]: readonly [net.Socket, net.Socket]) => {
    client.unpipe(upstream)
    upstream.unpipe(client)
    client.pause()
    upstream.pause()
  }

  return {
    host: `127.0.0.1:${port}`,
    refused: () => refused,
    cut() {
      mode = 'cut'
      for (const [client, upstream] of pairs) {
        client.resetAndDestroy()
        upstream.destroy()
      }
      pairs.clear()
    },
    partition() {
      mode = 'partition'
      for (const pair of pairs) hold(pair)
    },
    heal() {
      if (mode === 'partition') {
        for (const [client, upstream] of pairs) {
          client.pipe(upstream)
          upstream.pipe(client)
        }
      }
      mode = 'open'
    },
    close: async () => {
      for (const [client, upstream] of pairs) {
        client.destroy()
        upstream.destroy()
      }
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
