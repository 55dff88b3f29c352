import { afterEach, describe, expect, it, vi } from 'vitest'
import { mayChangeReads, ReadCache, READ_CACHE_TTL_MS } from './read-cache.js'

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

describe('mayChangeReads', () => {
  it('counts what can change a kept read, and not what writes other tables only', () => {
    const counts = [
      'update "projects" set "config" = $1 where "id" = $2',
      'insert into "memberships" ("org_id", "user_id", "role") values (?, ?, ?)',
      'delete from "apis" where "id" = $1',
      'with d as (update "stacks" set "name" = $1 returning "id") select * from d',
      'UPDATE accounts SET handle = ? WHERE id = ?',
      'commit',
      'begin immediate',
      'rollback',
      'savepoint "a"',
      'create table "x" ("id" text)',
    ]
    const keeps = [
      'select * from "projects"',
      '  SELECT 1',
      'update webhook_deliveries set claim_token = $1 where id in (select id from webhook_deliveries)',
      'insert into "webhook_attempts" ("delivery_id") select "a"."delivery_id" from json_each(?) as "a"',
      'with d as (update webhook_deliveries set claim_token = $1 returning *) select d.*, w.url from d join webhooks as w on w.id = d.webhook_id',
      'delete from "sessions" where "expires_at" < $1',
      'update "tokens" set "last_used_at" = $1 where "id" = $2',
      'insert into "project_aliases" ("old_slug") values ($1)',
      'update "stack_versions" set "yanked" = 1',
    ]
    for (const sql of counts) expect([sql, mayChangeReads(sql)]).toEqual([sql, true])
    for (const sql of keeps) expect([sql, mayChangeReads(sql)]).toEqual([sql, false])
  })
})
