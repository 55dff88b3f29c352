import { afterEach, describe, expect, it, vi } from 'vitest'
import type { TokenWithUser } from './accounts-repo.js'
import { TokenCache, type TokenChangeFeed } from './token-cache.js'

const row = (id: string, extra: Partial<TokenWithUser> = {}): TokenWithUser => ({
  id,
  user_id: 'usr_1',
  token_hash: `hash-${id}`,
  scopes: 'read',
  note: null,
  created_at: '2026-01-01T00:00:00.000Z',
  expires_at: null,
  revoked_at: null,
  last_used_at: null,
  user_handle: 'alice',
  ...extra,
})

/** A feed whose version the test moves; `undefined` stands for a lost connection. */
function feed(): TokenChangeFeed & { set(v: number | undefined): void } {
  let version: number | undefined = 1
  return { version: () => version, close: async () => {}, set: (v) => (version = v) }
}

/** Reads `hash` through the cache as AccountsRepo does: from it, or from `read` and kept. */
function lookUp(cache: TokenCache, hash: string, read: () => TokenWithUser | undefined) {
  const stamp = cache.stamp()
  const cached = stamp && cache.get(hash, stamp)
  if (cached) return { row: cached, queried: false }
  const found = read()
  if (found && stamp) cache.put(hash, found, stamp)
  return { row: found, queried: true }
}

describe('TokenCache', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('is off until a feed is attached: every lookup is a query', () => {
    const cache = new TokenCache()
    expect(lookUp(cache, 'h', () => row('tok_1')).queried).toBe(true)
    expect(lookUp(cache, 'h', () => row('tok_1')).queried).toBe(true)
  })

  it('answers a token it read from memory, and never keeps a miss', () => {
    const cache = new TokenCache()
    cache.attach(feed())
    expect(lookUp(cache, 'h', () => undefined)).toEqual({ row: undefined, queried: true })
    expect(lookUp(cache, 'h', () => row('tok_1')).queried).toBe(true)
    expect(lookUp(cache, 'h', () => row('tok_1'))).toEqual({ row: row('tok_1'), queried: false })
  })

  it('reads again after a change here, one told by the feed, or the TTL', () => {
    vi.useFakeTimers()
    const changes = feed()
    const cache = new TokenCache({ ttlMs: 5_000 })
    cache.attach(changes)
    lookUp(cache, 'h', () => row('tok_1'))

    cache.changed()
    expect(lookUp(cache, 'h', () => row('tok_1', { revoked_at: 'x' }))).toEqual({
      row: row('tok_1', { revoked_at: 'x' }),
      queried: true,
    })
    changes.set(2)
    expect(lookUp(cache, 'h', () => row('tok_1')).queried).toBe(true)
    expect(lookUp(cache, 'h', () => row('tok_1')).queried).toBe(false)
    vi.advanceTimersByTime(5_000)
    expect(lookUp(cache, 'h', () => row('tok_1')).queried).toBe(true)
  })

  it('keeps nothing while the feed cannot tell, nor a read that a change overtook', () => {
    const changes = feed()
    const cache = new TokenCache()
    cache.attach(changes)
    changes.set(undefined)
    lookUp(cache, 'h', () => row('tok_1'))
    changes.set(3)
    expect(lookUp(cache, 'h', () => row('tok_1')).queried).toBe(true)

    const stamp = cache.stamp()!
    cache.changed()
    cache.put('other', row('tok_2'), stamp)
    expect(lookUp(cache, 'other', () => row('tok_2')).queried).toBe(true)
  })

  it('follows last_used_at written here, and forgets the least recently read past its size', () => {
    const cache = new TokenCache({ size: 2 })
    cache.attach(feed())
    lookUp(cache, 'a', () => row('tok_a'))
    cache.touched('tok_a', '2026-02-02T00:00:00.000Z')
    expect(lookUp(cache, 'a', () => undefined).row?.last_used_at).toBe('2026-02-02T00:00:00.000Z')
    lookUp(cache, 'b', () => row('tok_b'))
    lookUp(cache, 'a', () => undefined)
    lookUp(cache, 'c', () => row('tok_c'))
    expect(lookUp(cache, 'a', () => undefined).queried).toBe(false)
    expect(lookUp(cache, 'b', () => row('tok_b')).queried).toBe(true)
  })
})
