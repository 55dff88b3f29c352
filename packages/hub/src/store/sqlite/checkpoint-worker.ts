import { parentPort, workerData } from 'node:worker_threads'
import SqliteDatabase from 'better-sqlite3'

/**
 * A thread with a connection of its own to the hub's SQLite file, which copies the WAL into the
 * database when told to (checkpointer.ts). PASSIVE: it never waits for a lock nor holds up a
 * reader or the writer; what it cannot copy yet is copied the next time.
 */
const { file } = workerData as { file: string }
const database = new SqliteDatabase(file, { fileMustExist: true, timeout: 0 })
database.pragma('busy_timeout = 0')

parentPort!.on('message', () => {
  try {
    const [result] = database.pragma('wal_checkpoint(PASSIVE)') as {
      busy: number
      log: number
      checkpointed: number
    }[]
    parentPort!.postMessage({ ok: true, ...result })
  } catch (error) {
    // SQLITE_BUSY (another process checkpoints) or a failing disk: the next tick tries again.
    parentPort!.postMessage({ ok: false, message: (error as Error).message })
  }
})
