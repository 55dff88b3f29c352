import { Worker } from 'node:worker_threads'
import type { GenerateMessage } from '@svc/engine/generate'
import { CommandError } from '../../errors.js'
import { BUNDLE_WORKER, FINISH, type BundleWorkerData, type ReadFailed } from './bundle-worker.js'

type Result = Extract<GenerateMessage, { type: 'result' }>
type Failed = Extract<GenerateMessage, { type: 'failed' }>
type Progress = Extract<GenerateMessage, { type: 'progress' }>

/** The bundle's answer, and when the worker is done with its code cache (never rejects). */
export type BundleRun = {
  readonly answer: Result | Failed | ReadFailed
  readonly finished: Promise<void>
}

/**
 * Runs a project's bundle in a worker thread and answers its result. The bundle is evaluated as
 * a script, so the module type of the folders around it (a `"type": "module"` package.json of
 * the user's app) cannot change how it loads; it is compiled with its V8 code cache
 * (`bundle-worker.ts`), and the worker reads the document itself when `data.file` names it.
 * @throws CommandError when the bundle cannot load (a cloned generator that throws on import)
 *   or the worker dies before answering
 */
export function runBundle(
  data: BundleWorkerData,
  onProgress: (progress: Progress) => void,
  log: (text: string) => void,
): Promise<BundleRun> {
  const { bundlePath } = data
  return new Promise((resolve, reject) => {
    const worker = new Worker(BUNDLE_WORKER, {
      eval: true,
      workerData: data,
      stdout: true,
      stderr: true,
    })
    let settled = false
    // A generator's console.log is not the command's result: both streams go to stderr.
    worker.stderr.on('data', (chunk: Buffer) => log(chunk.toString('utf8')))
    worker.stdout.on('data', (chunk: Buffer) => log(chunk.toString('utf8')))
    const finished = new Promise<void>((done) => worker.once('exit', () => done()))
    const finish = (outcome: () => void) => {
      if (settled) return
      settled = true
      outcome()
    }
    worker.on('message', (message: GenerateMessage | ReadFailed) => {
      if (message.type === 'progress') return onProgress(message)
      finish(() => {
        // The worker writes its code cache, if it is due, while this thread writes the files.
        worker.postMessage(FINISH)
        resolve({ answer: message, finished })
      })
    })
    worker.on('error', (error) =>
      finish(() =>
        reject(
          new CommandError(`the bundle ${bundlePath} failed: ${error.stack ?? error.message}`),
        ),
      ),
    )
    worker.on('exit', (exitCode) =>
      finish(() =>
        reject(
          new CommandError(`the bundle ${bundlePath} stopped (exit ${exitCode}) before answering`),
        ),
      ),
    )
  })
}
