import { expect, it } from 'vitest'
import type { Store } from './store.js'

/**
 * The storage contract of organisations' rate-limit overrides, part of `runStoreTests`
 * (`store.case.ts`), so it runs on every engine.
 */
export function runRateLimitsRepoTests(current: () => Store): void {
  const user = { method: 'GET', path: '/v1/user', max: 5, windowSeconds: 60 }
  const api = { method: 'GET', path: '/v1/apis/{owner}/{slug}', max: 1000, windowSeconds: 3600 }
  const push = {
    method: 'POST',
    path: '/v1/apis/{owner}/{slug}/revisions',
    max: 2,
    windowSeconds: 1,
  }

  async function orgs(store: Store) {
    return {
      acme: await store.accounts.create('acme', 'org'),
      beta: await store.accounts.create('beta', 'org'),
    }
  }

  it('starts with no overrides', async () => {
    const store = current()
    const { acme } = await orgs(store)
    expect(await store.rateLimits.list(acme.id)).toEqual([])
    expect(await store.rateLimits.listAll()).toEqual([])
  })

  it('set makes an override, and replaces the one of the same org, method and path', async () => {
    const store = current()
    const { acme, beta } = await orgs(store)
    await store.rateLimits.set(acme.id, user)
    await store.rateLimits.set(acme.id, push)
    await store.rateLimits.set(beta.id, user)
    await store.rateLimits.set(acme.id, { ...user, max: 7, windowSeconds: 10 })
    // The same path with another method is another route.
    await store.rateLimits.set(acme.id, { ...push, method: 'GET', path: '/v1/apis/{owner}/{slug}' })

    expect(await store.rateLimits.list(acme.id)).toEqual([
      { method: 'GET', path: '/v1/apis/{owner}/{slug}', max: 2, windowSeconds: 1 },
      push,
      { ...user, max: 7, windowSeconds: 10 },
    ])
    expect(await store.rateLimits.list(beta.id)).toEqual([user])
    expect(await store.rateLimits.listAll()).toEqual(
      [
        ...(await store.rateLimits.list(acme.id)).map((o) => ({
          ...o,
          orgId: acme.id,
          orgHandle: 'acme',
        })),
        { ...user, orgId: beta.id, orgHandle: 'beta' },
      ].sort((a, b) => (a.orgId < b.orgId ? -1 : a.orgId > b.orgId ? 1 : 0)),
    )
  })

  it('two rows for one org, method and path cannot exist', async () => {
    const store = current()
    const { acme } = await orgs(store)
    const row = {
      org_id: acme.id,
      method: 'GET',
      path: '/v1/user',
      max: 1,
      window_seconds: 1,
      updated_at: new Date().toISOString(),
    }
    await store.kysely.insertInto('rate_limit_overrides').values(row).execute()
    await expect(
      store.kysely
        .insertInto('rate_limit_overrides')
        .values({ ...row, max: 2 })
        .execute(),
    ).rejects.toSatisfy((error) => store.capabilities.isUniqueViolation(error))
    expect(await store.rateLimits.list(acme.id)).toEqual([{ ...user, max: 1, windowSeconds: 1 }])
  })

  it('an override belongs to an existing account', async () => {
    const store = current()
    await expect(store.rateLimits.set('org_000000000000000000000000', user)).rejects.toThrow()
    expect(await store.rateLimits.listAll()).toEqual([])
  })

  it('replace makes the list the whole set of one org, in one transaction', async () => {
    const store = current()
    const { acme, beta } = await orgs(store)
    await store.rateLimits.set(acme.id, user)
    await store.rateLimits.set(beta.id, api)

    await store.transaction((tx) => tx.rateLimits.replace(acme.id, [api, push]))
    expect(await store.rateLimits.list(acme.id)).toEqual([api, push])
    expect(await store.rateLimits.list(beta.id)).toEqual([api])

    // A replace that fails half-way (a repeated route) leaves the old set.
    await expect(
      store.transaction((tx) => tx.rateLimits.replace(acme.id, [user, user])),
    ).rejects.toThrow()
    expect(await store.rateLimits.list(acme.id)).toEqual([api, push])

    await store.transaction((tx) => tx.rateLimits.replace(acme.id, []))
    expect(await store.rateLimits.list(acme.id)).toEqual([])
    expect(await store.rateLimits.list(beta.id)).toEqual([api])
  })

  it('delete removes one override and tells whether there was one', async () => {
    const store = current()
    const { acme, beta } = await orgs(store)
    await store.rateLimits.set(acme.id, user)
    await store.rateLimits.set(acme.id, api)
    await store.rateLimits.set(beta.id, user)

    expect(await store.rateLimits.delete(acme.id, 'GET', '/v1/user')).toBe(true)
    expect(await store.rateLimits.delete(acme.id, 'GET', '/v1/user')).toBe(false)
    expect(await store.rateLimits.delete(acme.id, 'POST', '/v1/apis/{owner}/{slug}')).toBe(false)
    expect(await store.rateLimits.list(acme.id)).toEqual([api])
    expect(await store.rateLimits.list(beta.id)).toEqual([user])
  })
}
