import { readFileSync } from 'node:fs'
import { parentPort } from 'node:worker_threads'
import { DocumentError } from '../input/document-error.js'
import { parseApi } from '../parse-api.js'
import type { AnyGeneratorEntry } from './entries.js'
import { generate, type GenerateSettings, type Manifest } from './generate.js'
import type { ImportExtension } from './render/index.js'

/** What `svc generate` asks a project's bundle, running in a worker thread, to do. */
export type GenerateRequest = {
  readonly text: string
  /** The document's path or URL: locations in parse issues, and external refs of a file. */
  readonly origin?: string
  /** Whether `origin` is a local file whose relative `$ref`s may be read. */
  readonly isFile?: boolean
  readonly settings: GenerateSettings
  readonly importExtension?: ImportExtension
}

/** Every answer the worker posts: progress any number of times, then one result. */
export type GenerateMessage =
  | {
      readonly type: 'progress'
      readonly generatorId: string
      readonly done: number
      readonly total: number
    }
  | {
      readonly type: 'result'
      readonly files: readonly (readonly [path: string, content: string])[]
      readonly manifest: Manifest
    }
  | {
      readonly type: 'failed'
      /** `DocumentError` when the text cannot be read as an API description at all. */
      readonly name: string
      readonly message: string
      readonly code?: string
      readonly line?: number
      readonly column?: number
      readonly file?: string
    }

/**
 * The body of a project's `worker.ts`: answers one `GenerateRequest` from the parent thread with
 * the parse, the run of `generators`, and the rendered files. Progress is posted at most every
 * 100 ms, so a long run shows it without flooding the channel.
 */
export function serveGenerateRequests(generators: readonly AnyGeneratorEntry[]): void {
  const port = parentPort
  if (port === null) throw new Error('serveGenerateRequests runs in a worker thread')
  port.once('message', (request: GenerateRequest) => {
    void answer(request, generators).then((message) => port.postMessage(message))
  })
}

async function answer(
  request: GenerateRequest,
  generators: readonly AnyGeneratorEntry[],
): Promise<GenerateMessage> {
  try {
    const parsed = await parseApi(
      { text: request.text, ...(request.origin === undefined ? {} : { origin: request.origin }) },
      { ...(request.isFile ? { readFile: (path: string) => readFileSync(path, 'utf8') } : {}) },
    )
    let last = 0
    const { files, manifest } = generate({
      parsed,
      generators,
      settings: request.settings,
      ...(request.importExtension === undefined
        ? {}
        : { importExtension: request.importExtension }),
      onProgress: (progress) => {
        const now = performance.now()
        if (now - last < 100 && progress.done !== progress.total) return
        last = now
        parentPort?.postMessage({ type: 'progress', ...progress } satisfies GenerateMessage)
      },
    })
    return { type: 'result', files: [...files], manifest }
  } catch (error) {
    if (error instanceof DocumentError)
      return {
        type: 'failed',
        name: error.name,
        message: error.message,
        code: error.code,
        ...(error.line === undefined ? {} : { line: error.line, column: error.column ?? 1 }),
        ...(error.file === undefined ? {} : { file: error.file }),
      }
    const { name, message } = error instanceof Error ? error : new Error(String(error))
    return { type: 'failed', name, message }
  }
}
