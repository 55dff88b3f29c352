import { readFileSync } from 'node:fs'
import { Worker } from 'node:worker_threads'
import type { GenerateMessage, GenerateRequest } from '@svc/engine/generate'
import { CommandError } from '../../errors.js'

type Result = Extract<GenerateMessage, { type: 'result' }>
type Failed = Extract<GenerateMessage, { type: 'failed' }>
type Progress = Extract<GenerateMessage, { type: 'progress' }>

/**
 * Runs a project's bundle in a worker thread and answers its result. The bundle is evaluated as
 * a script, so the module type of the folders around it (a `"type": "module"` package.json of
 * the user's app) cannot change how it loads.
 * @throws CommandError when the bundle cannot load (a cloned generator that throws on import)
 *   or the worker dies before answering
 */
export function runBundle(
  bundlePath: string,
  request: GenerateRequest,
  onProgress: (progress: Progress) => void,
  log: (text: string) => void,
): Promise<Result | Failed> {
  const code = readFileSync(bundlePath, 'utf8')
  return new Promise((resolve, reject) => {
    const worker = new Worker(code, { eval: true, stdout: true, stderr: true })
    let settled = false
    // A generator's console.log is not the command's result: both streams go to stderr.
    worker.stderr.on('data', (chunk: Buffer) => log(chunk.toString('utf8')))
    worker.stdout.on('data', (chunk: Buffer) => log(chunk.toString('utf8')))
    const finish = (outcome: () => void) => {
      if (settled) return
      settled = true
      void worker.terminate()
      outcome()
    }
    worker.on('message', (message: GenerateMessage) => {
      if (message.type === 'progress') onProgress(message)
      else finish(() => resolve(message))
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
    worker.postMessage(request)
  })
}
