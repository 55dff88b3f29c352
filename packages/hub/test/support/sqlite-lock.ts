import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'

/** Another process holding the write lock of a SQLite file, until `release()`. */
export type HeldLock = {
  /** Commits the holder's write and ends its process. */
  release(): Promise<void>
}

/** What the holder runs: `node -e <this> <better-sqlite3> <file>`. */
const HOLDER = `
const Database = require(process.argv[1])
const db = new Database(process.argv[2], { timeout: 10000 })
db.exec('begin immediate')
db.prepare('update kysely_migration set timestamp = timestamp').run()
process.stdout.write('locked\\n')
process.stdin.once('data', () => {
  db.exec('commit')
  db.close()
  process.exit(0)
})
`

/**
 * Starts a second process that opens the SQLite file `file`, begins a transaction IMMEDIATE,
 * writes, and holds it (as `sqlite3 hub.db` in a long transaction, or a maintenance script
 * would); answers once the lock is taken.
 */
export async function holdSqliteWriteLock(file: string): Promise<HeldLock> {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3')
  const child = spawn(process.execPath, ['-e', HOLDER, driver, file], {
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString('utf8').includes('locked')) resolve()
    })
    void exited.then((code) => reject(new Error(`the lock holder exited with ${code}: ${stderr}`)))
  })
  return {
    release: async () => {
      child.stdin.write('release\n')
      const code = await exited
      if (code !== 0) throw new Error(`the lock holder exited with ${code}: ${stderr}`)
    },
  }
}
