import { Worker } from 'node:worker_threads'
import { workerModule } from '../../worker-module.js'

/** How often the WAL is copied into the database. */
export const CHECKPOINT_INTERVAL_MS = 500

const WORKER = workerModule('./checkpoint-worker.js', import.meta.url)

/** What a checkpoint did (SQLite's `wal_checkpoint` answer), or why it could not. */
export type CheckpointResult =
  | {
      readonly ok: true
      readonly busy: number
      readonly log: number
      readonly checkpointed: number
    }
  | { readonly ok: false; readonly message: string }

export type Checkpointer = {
  /** Asks for a checkpoint now and answers what it did. */
  checkpoint(): Promise<CheckpointResult>
  close(): Promise<void>
}

/**
 * Copies the WAL of the SQLite `file` into the database every {@link CHECKPOINT_INTERVAL_MS}
 * from a worker thread, for a connection whose own automatic checkpoints are off
 * (`wal_autocheckpoint = 0`). SQLite otherwise checkpoints in the commit that takes the WAL past
 * 1,000 pages, on the thread that commits: after a push of 28 MB that held the hub's event loop
 * for 60–230 ms. The thread never keeps the process alive. Should the thread fail (it cannot
 * open the file), `failed` is told once, and the connection must checkpoint for itself again.
 */
export function startCheckpointer(file: string, failed: (error: Error) => void): Checkpointer {
  const worker = new Worker(WORKER, { workerData: { file } })
  worker.unref()
  const waiting: ((result: CheckpointResult) => void)[] = []
  let broken: CheckpointResult | undefined
  worker.on('message', (result: CheckpointResult) => waiting.shift()?.(result))
  worker.on('error', (error) => {
    broken = { ok: false, message: error.message }
    for (const answer of waiting.splice(0)) answer(broken)
    failed(error)
  })
  const checkpoint = (): Promise<CheckpointResult> => {
    if (broken) return Promise.resolve(broken)
    return new Promise((resolve) => {
      waiting.push(resolve)
      worker.postMessage('checkpoint')
    })
  }
  let inFlight = false
  const timer = setInterval(() => {
    if (inFlight || broken) return
    inFlight = true
    void checkpoint().finally(() => (inFlight = false))
  }, CHECKPOINT_INTERVAL_MS)
  timer.unref()
  return {
    checkpoint,
    async close() {
      clearInterval(timer)
      await worker.terminate()
    },
  }
}
