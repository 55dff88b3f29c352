import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { storeKinds } from './support/databases.js'
import { HUB_BIN, runNode, startHub, type HubProcess } from './support/hub-process.js'
import { snapshotStore } from './support/store-snapshot.js'

const hubs: HubProcess[] = []
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.dispose()))
})

/** A migration this hub does not have, as a newer svc-hub would have applied it. */
const NEWER = '0099-from-a-newer-hub'
const MESSAGE = `error: this store was migrated by a newer svc-hub (${NEWER}); upgrade the hub, or restore a backup\n`

describe.each(await storeKinds())('a %s store migrated by a newer svc-hub', (kind) => {
  it('serve, worker and admin refuse it with exit 1 and one clear line, and change nothing', async () => {
    const hub = await startHub(kind)
    hubs.push(hub)
    await hub.stop()
    const store = await hub.openStore()
    try {
      const table = sql.table(hub.schema ? `${hub.schema}.kysely_migration` : 'kysely_migration')
      await sql`insert into ${table} (name, timestamp) values (${NEWER}, ${new Date().toISOString()}), (${'0098-older-but-also-newer'}, ${new Date().toISOString()})`.execute(
        store.kysely,
      )
      const before = await snapshotStore(store)

      for (const args of [['serve'], ['worker'], ['admin', 'create-user', 'alice']]) {
        const run = await runNode([HUB_BIN, ...args], hub.env)
        expect([args[0], run.code, run.stderr]).toEqual([args[0], 1, MESSAGE])
      }
      expect(await snapshotStore(store)).toEqual(before)
    } finally {
      await store.close()
    }
  })
})
