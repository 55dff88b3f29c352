// A TCP proxy between a hub and a server it talks to (Redis), to stop the network on cue.
import net from 'node:net'

/**
 * Starts a proxy to `target` on a free loopback port. `partition()` stops every byte both ways
 * while connections stay open (a network that drops packets: no error, no close); `heal()` lets
 * what was held back flow on. Answers `{ host, partition, heal, close }`.
 */
export async function startTcpProxy(target) {
  let partitioned = false
  const pairs = new Set()
  const hold = ([client, upstream]) => {
    client.unpipe(upstream)
    upstream.unpipe(client)
    client.pause()
    upstream.pause()
  }
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host)
    const pair = [client, upstream]
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
    if (partitioned) hold(pair)
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    host: `127.0.0.1:${server.address().port}`,
    partition() {
      partitioned = true
      for (const pair of pairs) hold(pair)
    },
    heal() {
      partitioned = false
      for (const [client, upstream] of pairs) {
        client.pipe(upstream)
        upstream.pipe(client)
      }
    },
    close: async () => {
      for (const [client, upstream] of pairs) {
        client.destroy()
        upstream.destroy()
      }
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
