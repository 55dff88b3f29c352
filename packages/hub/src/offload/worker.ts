import { move, transferableSymbol, valueSymbol } from 'piscina'
import { readPushJson, type PushJson } from '../apis/push-json.js'
import { readAnswer, type AnswerRead } from '../runs/answer.js'

/**
 * The tasks offload/pool.ts runs in worker threads, each a named export. They take bytes and
 * answer plain data; the buffers they answer are moved to the event loop's thread, not copied.
 */

/** A run's answer: see runs/answer.ts `readAnswer`. */
export function runAnswer(answer: { status: number; body: Uint8Array }): AnswerRead | string {
  const read = readAnswer(answer)
  if (typeof read === 'string') return read
  return moved(
    read,
    read.artifacts.map((artifact) => artifact.data.buffer as ArrayBuffer),
  )
}

/** A push body sent as JSON: see apis/push-json.ts. */
export function pushJson(body: Uint8Array): PushJson {
  const read = readPushJson(body)
  return read.kind === 'envelope' ? moved(read, [read.bytes.buffer as ArrayBuffer]) : read
}

/** `value`, with `buffers` (inside it) to be transferred rather than copied. */
function moved<T extends object>(value: T, buffers: ArrayBuffer[]): T {
  return move({
    get [transferableSymbol]() {
      return buffers
    },
    get [valueSymbol]() {
      return value
    },
  }) as T
}
