import { randomBytes } from 'node:crypto'
import pino from 'pino'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { eventually } from '../../test/support/poll.js'
import { redisAvailable, redisUrl } from '../../test/support/redis.js'
import { startTcpProxy } from '../../test/support/tcp-proxy.js'
import { Limiter } from './limiter.js'
import { NOT_REACHABLE, READY } from './redis-circuit.js'
import { connectRedis } from './redis.js'

const cleanups: (() => Promise<unknown> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

describe.skipIf(!(await redisAvailable()))('the Redis circuit of the limiter', () => {
  it('opens when commands time out (a partition), counts in memory without sending anything, and closes once a probe is answered', async () => {
    const direct = new URL(redisUrl())
    const proxy = await startTcpProxy({
      host: direct.hostname,
      port: Number(direct.port || 6379),
    })
    cleanups.push(() => proxy.close())
    const logged: { msg: string; level: number }[] = []
    const log = pino({ level: 'info' }, { write: (line: string) => logged.push(JSON.parse(line)) })
    const proxied = new URL(direct)
    proxied.host = proxy.host
    const circuit = await connectRedis(proxied.href, log)
    cleanups.push(() => circuit.stop())
    const said = (msg: string) => logged.filter((line) => line.msg === msg).length
    expect(circuit.closed).toBe(true)
    expect(said(READY)).toBe(1)
    // Every command the client sends, by name (PING is the probe's).
    const sent: string[] = []
    const sendCommand = circuit.redis.sendCommand.bind(circuit.redis)
    vi.spyOn(circuit.redis, 'sendCommand').mockImplementation((command, stream) => {
      sent.push(command.name)
      return sendCommand(command, stream)
    })

    const limiter = new Limiter(circuit)
    const limit = { max: 5, windowSeconds: 60 }
    const key = `circuit-test-${randomBytes(6).toString('hex')}`
    expect(await limiter.consume(key, limit)).toMatchObject({ allowed: true, remaining: 4 })

    proxy.partition()
    // Two counts time out in a row, and are made in memory: the circuit opens, once.
    expect(await limiter.consume(key, limit)).toMatchObject({ allowed: true, remaining: 4 })
    expect(await limiter.consume(key, limit)).toMatchObject({ allowed: true, remaining: 3 })
    expect(circuit.closed).toBe(false)
    expect(said(NOT_REACHABLE)).toBe(1)
    // While open, the limit holds in memory and no count is sent to Redis.
    const before = sent.filter((name) => name !== 'ping').length
    const verdicts = []
    for (let i = 0; i < 5; i++) verdicts.push(await limiter.consume(key, limit))
    expect(verdicts.map((v) => v.allowed)).toEqual([true, true, true, false, false])
    await limiter.refund(key, limit)
    expect(sent.filter((name) => name !== 'ping')).toHaveLength(before)
    expect(said(NOT_REACHABLE)).toBe(1)

    proxy.heal()
    await eventually(() => (circuit.closed ? true : undefined), 'the circuit to close')
    expect(sent).toContain('ping')
    expect(said(READY)).toBe(2)
    expect(said(NOT_REACHABLE)).toBe(1)
    // Counted in Redis again: its count went on from the one made before the partition and the
    // two sent into it (delivered when it healed), not from the memory's.
    expect(await limiter.consume(key, limit)).toMatchObject({ allowed: true, remaining: 1 })
  })

  it('a client that cannot connect leaves it open from the start, with one warning', async () => {
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: 1 })
    cleanups.push(() => proxy.close())
    proxy.cut()
    const logged: { msg: string }[] = []
    const log = pino({ level: 'info' }, { write: (line: string) => logged.push(JSON.parse(line)) })
    const circuit = await connectRedis(`redis://${proxy.host}`, log)
    cleanups.push(() => circuit.stop())
    expect(circuit.closed).toBe(false)
    const limiter = new Limiter(circuit)
    const limit = { max: 1, windowSeconds: 60 }
    expect((await limiter.consume('k', limit)).allowed).toBe(true)
    expect((await limiter.consume('k', limit)).allowed).toBe(false)
    await eventually(() => (proxy.refused() >= 2 ? true : undefined), 'the client to try again')
    expect(logged.filter((line) => line.msg === NOT_REACHABLE)).toHaveLength(1)
  })
})
