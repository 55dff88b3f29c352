import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { HUB_BIN } from '../../../test/support/hub-process.js'
import { openStore } from '../open-store.js'

let dataDir: string | undefined
afterEach(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

it('migrates a new data dir once when several processes open it at the same moment', async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'svc-hub-migrate-'))
  // Real processes: SQLite has no migration lock across connections, so only they can race.
  const runs = await Promise.all(
    Array.from({ length: 4 }, (_, i) =>
      run(['admin', 'create-user', `user${i}`], { SVC_HUB_DATA: dataDir!, DATABASE_URL: '' }),
    ),
  )
  expect(runs.map((r) => r.stderr)).toEqual(['', '', '', ''])
  expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 0])
  const store = await openStore({ kind: 'sqlite', dataDir })
  try {
    for (let i = 0; i < 4; i++) expect(await store.accounts.find(`user${i}`)).toBeDefined()
  } finally {
    await store.close()
  }
})

function run(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [HUB_BIN, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stderr }))
  })
}
