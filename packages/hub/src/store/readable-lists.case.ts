import { expect, it } from 'vitest'
import type { HandleSlugCursor } from './keyset.js'
import type { AccountRow } from './schema.js'
import type { Store } from './store.js'

/**
 * The storage contract of the stack and project lists a reader sees, part of `runStoreTests`
 * (`store.case.ts`), so it runs on every engine: the reader's own account and its organisations,
 * by account handle and slug, paged after a handle and slug.
 */
export function runReadableListsTests(current: () => Store): void {
  /** alice reads her own account and acme (as a reader); bob and other are someone else's. */
  async function seedAccounts(store: Store) {
    const alice = await store.accounts.create('alice', 'user')
    const bob = await store.accounts.create('bob', 'user')
    const acme = await store.accounts.create('acme', 'org')
    const other = await store.accounts.create('other', 'org')
    await store.accounts.setRole(acme.id, alice.id, 'reader')
    await store.accounts.setRole(other.id, bob.id, 'owner')
    return { alice, bob, acme, other }
  }

  const OWNED = [
    ['alice', 'zeta'],
    ['bob', 'beta'],
    ['acme', 'web'],
    ['other', 'alpha'],
    ['acme', 'api'],
    ['alice', 'app'],
    ['acme', 'tools'],
  ] as const
  const READABLE_BY_ALICE = ['acme/api', 'acme/tools', 'acme/web', 'alice/app', 'alice/zeta']

  /** Every page of a list of `limit` rows, each after the last row of the page before. */
  async function allPages(
    list: (after: HandleSlugCursor | undefined) => Promise<{ handle: string; slug: string }[]>,
    limit: number,
  ): Promise<string[][]> {
    const pages: string[][] = []
    let after: HandleSlugCursor | undefined
    // A cursor that does not move past its row would page forever.
    while (pages.length < 10) {
      const page = await list(after)
      pages.push(page.map((row) => `${row.handle}/${row.slug}`))
      const last = page.at(-1)
      if (page.length < limit || !last) return pages
      after = { account: last.handle, slug: last.slug }
    }
    throw new Error(`still paging after 10 pages: ${JSON.stringify(pages)}`)
  }

  it('stacks: the reader’s own and its organisations’, by handle and slug, in pages', async () => {
    const store = current()
    const accounts = await seedAccounts(store)
    for (const [handle, slug] of OWNED) await store.stacks.ensure(accounts[handle].id, slug)
    const list = (reader: AccountRow, after?: HandleSlugCursor, account?: AccountRow) =>
      store.stacks
        .listReadable({ readerId: reader.id, accountId: account?.id, after, limit: 2 })
        .then((rows) => rows.map((row) => ({ handle: row.account_handle, slug: row.slug })))

    expect(await allPages((after) => list(accounts.alice, after), 2)).toEqual([
      ['acme/api', 'acme/tools'],
      ['acme/web', 'alice/app'],
      ['alice/zeta'],
    ])
    expect((await allPages((after) => list(accounts.bob, after), 2)).flat()).toEqual([
      'bob/beta',
      'other/alpha',
    ])
    expect(
      (await allPages((after) => list(accounts.alice, after, accounts.acme), 2)).flat(),
    ).toEqual(['acme/api', 'acme/tools', 'acme/web'])
    expect(await list(accounts.alice, undefined, accounts.other)).toEqual([])
  })

  it('projects: the reader’s own and its organisations’, by handle and slug, in pages', async () => {
    const store = current()
    const accounts = await seedAccounts(store)
    const stack = await store.stacks.ensure(accounts.other.id, 'stack')
    const api = await store.apis.create({
      account_id: accounts.other.id,
      slug: 'petstore',
      name: 'Petstore',
      visibility: 'public',
      source_url: null,
    })
    for (const [handle, slug] of OWNED) {
      await store.projects.create({
        account_id: accounts[handle].id,
        slug,
        stack_id: stack.id,
        stack_version: 'latest',
        api_id: api.id,
        config: '{}',
        created_by: accounts.alice.id,
      })
    }
    const list = (reader: AccountRow, after?: HandleSlugCursor) =>
      store.projects
        .listReadable({ readerId: reader.id, after, limit: 3 })
        .then((rows) => rows.map((row) => ({ handle: row.account_handle, slug: row.slug })))

    expect(await allPages((after) => list(accounts.alice, after), 3)).toEqual([
      READABLE_BY_ALICE.slice(0, 3),
      READABLE_BY_ALICE.slice(3),
    ])
    expect((await allPages((after) => list(accounts.bob, after), 3)).flat()).toEqual([
      'bob/beta',
      'other/alpha',
    ])
  })
}
