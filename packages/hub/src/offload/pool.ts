import { availableParallelism } from 'node:os'
import { Piscina } from 'piscina'
import { workerModule } from '../worker-module.js'
import type * as Tasks from './worker.js'

/** Idle threads end after this long; an idle hub keeps none. */
const IDLE_MS = 30_000

const WORKER = workerModule('./worker.js', import.meta.url)

type TaskName = keyof typeof Tasks
type TaskInput<K extends TaskName> = Parameters<(typeof Tasks)[K]>[0]
type TaskOutput<K extends TaskName> = Awaited<ReturnType<(typeof Tasks)[K]>>

let pool: Piscina | undefined

/**
 * Runs the task `name` of offload/worker.ts in a worker thread, so that the event loop keeps
 * answering while a large body is decoded, parsed, encoded and hashed. `transfer` moves those
 * buffers instead of copying them (they are unusable here afterwards). One thread per core but
 * one (at least one), queued beyond that; idle threads end after 30 s and never keep the process
 * alive.
 */
export function offload<K extends TaskName>(
  name: K,
  input: TaskInput<K>,
  transfer: readonly ArrayBuffer[] = [],
): Promise<TaskOutput<K>> {
  pool ??= new Piscina({
    filename: WORKER.href,
    minThreads: 0,
    maxThreads: Math.max(1, availableParallelism() - 1),
    idleTimeout: IDLE_MS,
  })
  return pool.run(input, { name, transferList: [...transfer] }) as Promise<TaskOutput<K>>
}
