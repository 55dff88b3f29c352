import { describe, expect, it } from 'vitest'
import type { Store } from './store.js'

/** The storage contract of passwords and browser sessions, part of `runStoreTests`. */
export function runSessionsRepoTests(current: () => Store): void {
  const session = (userId: string, tokenHash: string, expiresAt = '2099-01-01T00:00:00.000Z') => ({
    userId,
    tokenHash,
    csrfToken: `csrf-${tokenHash}`,
    expiresAt,
  })

  describe('passwords', () => {
    it('sets, replaces and reads a user’s password hash; none for a user without one', async () => {
      const store = current()
      const alice = await store.accounts.create('alice', 'user')
      const bob = await store.accounts.create('bob', 'user')
      expect(await store.sessions.passwordOf(alice.id)).toBeUndefined()
      await store.sessions.setPassword(alice.id, 'scrypt$1')
      await store.sessions.setPassword(alice.id, 'scrypt$2')
      expect(await store.sessions.passwordOf(alice.id)).toBe('scrypt$2')
      expect(await store.sessions.passwordOf(bob.id)).toBeUndefined()
    })
  })

  describe('sessions', () => {
    it('finds a session by its token hash with its user’s handle, and only by it', async () => {
      const store = current()
      const alice = await store.accounts.create('alice', 'user')
      const made = await store.sessions.create(session(alice.id, 'hash-a'))
      expect(made.id).toMatch(/^ses_[0-9a-f]{24}$/)
      expect(await store.sessions.findByTokenHash('hash-a')).toEqual({
        ...made,
        user_handle: 'alice',
      })
      expect(await store.sessions.findByTokenHash('hash-b')).toBeUndefined()
      await expect(store.sessions.create(session(alice.id, 'hash-a'))).rejects.toThrow()
    })

    it('keeps a one-time notice, touches, and deletes one session, all of a user, or the expired', async () => {
      const store = current()
      const alice = await store.accounts.create('alice', 'user')
      const bob = await store.accounts.create('bob', 'user')
      const a1 = await store.sessions.create(session(alice.id, 'a1'))
      await store.sessions.create(session(alice.id, 'a2'))
      await store.sessions.create(session(alice.id, 'a3'))
      await store.sessions.create(session(bob.id, 'b1', '2020-01-01T00:00:00.000Z'))

      await store.sessions.setFlash(a1.id, '{"kind":"success","message":"hi"}')
      await store.sessions.touch(a1.id, '2030-01-01T00:00:00.000Z')
      const found = await store.sessions.findByTokenHash('a1')
      expect(found?.flash).toBe('{"kind":"success","message":"hi"}')
      expect(found?.last_seen_at).toBe('2030-01-01T00:00:00.000Z')
      await store.sessions.setFlash(a1.id, null)
      expect((await store.sessions.findByTokenHash('a1'))?.flash).toBeNull()

      expect(await store.sessions.deleteForUser(alice.id, a1.id)).toBe(2)
      expect(await store.sessions.findByTokenHash('a1')).toBeDefined()
      expect(await store.sessions.findByTokenHash('a2')).toBeUndefined()
      expect(await store.sessions.findByTokenHash('a3')).toBeUndefined()

      expect(await store.sessions.deleteExpired('2025-01-01T00:00:00.000Z')).toBe(1)
      expect(await store.sessions.findByTokenHash('b1')).toBeUndefined()
      await store.sessions.delete(a1.id)
      expect(await store.sessions.findByTokenHash('a1')).toBeUndefined()
    })
  })
}
