import { afterEach, describe, expect, it, vi } from 'vitest'
import { ReadCache, READ_CACHE_TTL_MS } from './read-cache.js'

/** A feed whose version the test moves; `undefined` plays an engine that cannot tell. */
function feed(initial: string | undefined = 'v1') {
  let version: string | undefined = initial
  return {
    version: () => version,
    set: (next: string | undefined) => {
      version = next
    },
  }
}

function counted<V>(answers: V[]) {
  let calls = 0
  const read = async () => answers[Math.min(calls++, answers.length - 1)]!
  return { read, calls: () => calls }
}

describe('ReadCache', () => {
  afterEach(() => vi.useRealTimers())

  it('is off until a feed is attached, and while the feed cannot tell', async () => {
    const cache = new ReadCache()
    const { read, calls } = counted(['a', 'b', 'c'])
    expect(await cache.read('k', read)).toBe('a')
    expect(await cache.read('k', read)).toBe('b')
    const changes = feed(undefined)
    cache.attach(changes)
    expect(await cache.read('k', read)).toBe('c')
    expect(calls()).toBe(3)
  })

  it('answers a key from memory until the feed moves or the TTL passes', async () => {
    vi.useFakeTimers()
    const cache = new ReadCache()
    const changes = feed()
    cache.attach(changes)
    const { read, calls } = counted(['a', 'b', 'c'])
    expect(await cache.read('k', read)).toBe('a')
    expect(await cache.read('k', read)).toBe('a')
    expect(calls()).toBe(1)
    changes.set('v2')
    expect(await cache.read('k', read)).toBe('b')
    vi.advanceTimersByTime(READ_CACHE_TTL_MS)
    expect(await cache.read('k', read)).toBe('c')
    expect(await cache.read('other', async () => 'o')).toBe('o')
  })

  it('keeps no read that a change overtook', async () => {
    const cache = new ReadCache()
    const changes = feed()
    cache.attach(changes)
    const { read } = counted(['a', 'b'])
    expect(
      await cache.read('k', async () => {
        const value = await read()
        changes.set('v2')
        return value
      }),
    ).toBe('a')
    expect(await cache.read('k', read)).toBe('b')
  })

  it('forgets the least recently read past its size', async () => {
    const cache = new ReadCache({ size: 2 })
    cache.attach(feed())
    await cache.read('a', async () => 1)
    await cache.read('b', async () => 2)
    expect(await cache.read('a', async () => 0)).toBe(1)
    await cache.read('c', async () => 3)
    expect(await cache.read('a', async () => 0)).toBe(1)
    expect(await cache.read('b', async () => 0)).toBe(0)
  })
})
