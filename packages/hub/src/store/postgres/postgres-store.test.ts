import { afterAll, describe, expect, it } from 'vitest'
import {
  dropSchema,
  newSchemaName,
  emptiedStores,
  openFreshStore,
  postgresUrl,
  storeKinds,
} from '../../../test/support/databases.js'
import { sql } from 'kysely'
import { openStore, type StoreOptions } from '../open-store.js'
import { runStoreTests } from '../store.case.js'

// storeKinds() says why when it leaves PostgreSQL out, and throws when CI asked for it.
const enabled = (await storeKinds()).includes('postgres')

;(enabled ? describe : describe.skip)('store on PostgreSQL', () => {
  // Making a schema and running every migration takes a second or more on PostgreSQL: the tests
  // share one migrated schema, emptied before each; those about new data make a fresh one.
  const emptied = emptiedStores()
  afterAll(() => emptied.close())
  runStoreTests({
    kind: 'postgres',
    newStore: () => openFreshStore('postgres'),
    emptyStore: () => emptied.next(),
  })

  it('a read prepared before another process changed its table still answers, with the new column', async () => {
    const schema = newSchemaName()
    const options: StoreOptions = { kind: 'postgres', url: postgresUrl(), schema }
    const hub = await openStore(options)
    const other = await openStore(options)
    try {
      await hub.accounts.create('alice', 'user')
      // Prepared and planned on the hub's connections (a named statement).
      for (let i = 0; i < 12; i++) expect((await hub.accounts.find('alice'))?.handle).toBe('alice')
      await sql`alter table accounts add column nickname text`.execute(other.kysely)
      for (let i = 0; i < 12; i++) {
        expect(await hub.accounts.find('alice')).toMatchObject({ handle: 'alice', nickname: null })
      }
    } finally {
      await Promise.all([hub.close(), other.close()])
      await dropSchema(schema)
    }
  })

  it('several hubs starting at once on a new schema all come up on one migrated schema', async () => {
    // A few rounds: the race it guards against (CREATE SCHEMA, the migrations) is not every time.
    for (let round = 0; round < 3; round++) {
      const schema = newSchemaName()
      const options: StoreOptions = { kind: 'postgres', url: postgresUrl(), schema }
      const results = await Promise.allSettled([1, 2, 3, 4].map(() => openStore(options)))
      const stores = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []))
      try {
        expect(results.filter((r) => r.status === 'rejected')).toEqual([])
        const [first, ...others] = stores
        const alice = await first?.accounts.create('alice', 'user')
        for (const other of others) expect(await other.accounts.find('alice')).toEqual(alice)
      } finally {
        await Promise.all(stores.map((s) => s.close()))
        await dropSchema(schema)
      }
    }
  })
})
