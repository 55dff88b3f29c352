import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { describe } from 'vitest'
import { openFreshStore } from '../../../test/support/databases.js'
import { runStoreTests } from '../store.case.js'

describe('store on SQLite', () => {
  runStoreTests({
    kind: 'sqlite',
    // A file in a temp dir, not :memory:, so that a second store can open the same data.
    newStore: async () => {
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'svc-hub-store-'))
      const fresh = await openFreshStore('sqlite', dataDir)
      return {
        ...fresh,
        cleanup: async () => {
          await fresh.cleanup()
          await rm(dataDir, { recursive: true, force: true })
        },
      }
    },
  })
})
