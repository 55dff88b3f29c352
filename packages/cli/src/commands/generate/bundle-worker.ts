import { join } from 'node:path'
import type { GenerateRequest } from '@svc/engine/generate'
import type { ProjectPaths } from '../../project/app-root.js'

/**
 * Where a project's V8 code cache of `bundle.js` lives: a folder of its own that ignores itself
 * in git (a `.gitignore` of `*`), so no project's `.gitignore` needs to know about it; `svc publish`
 * leaves dot-folders out.
 */
export function codeCachePath(paths: ProjectPaths): string {
  return join(paths.dir, '.cache', 'bundle.js.v8cache')
}

/** What the worker is started with. */
export type BundleWorkerData = {
  readonly bundlePath: string
  readonly cachePath: string
  /** The request, whose `text` the worker reads from `file` when it is given. */
  readonly request: Omit<GenerateRequest, 'text'> & { readonly text?: string }
  readonly file?: string | undefined
}

/** Posted by the parent once it has the answer: the worker writes its code cache if due, and ends. */
export const FINISH = 'svc:finish'

/** Posted by the worker instead of an answer when it cannot read `file`. */
export type ReadFailed = {
  readonly type: 'read-failed'
  readonly code?: string
  readonly message: string
}

/**
 * The worker's own code, evaluated as a script (`eval: true`: no file to find beside this module,
 * however the CLI is packaged; and `require`, `module` and `__filename` are the globals they were
 * when the bundle itself was the evaluated code). It starts reading the document on the thread
 * pool, compiles `bundle.js` with the code cache V8 made last time, runs it (the bundle listens for
 * one request), and hands it the request once the text is there. The cache holds a key line
 * (Node's version, the architecture, the bundle's size), then the very bytes of the bundle it was
 * made from, then V8's data: it is used only when those bytes are the bundle's (a memcmp: cheaper
 * than any digest, and a worker that loads no node:crypto starts faster); V8 checks its own
 * version and flags and says when it rejects the data. A missing, stale or rejected cache is
 * written again after the answer, from the code V8 compiled during the run, to a temporary file
 * renamed into place, so concurrent runs never read half a cache; any failure to write (a
 * read-only folder) is ignored. Everything sits in a function: the bundle's top-level names share
 * the global scope.
 */
export const BUNDLE_WORKER = `(() => {
  'use strict'
  const { parentPort, threadId, workerData } = require('node:worker_threads')
  const fs = require('node:fs')
  const { dirname, join } = require('node:path')
  const vm = require('node:vm')
  const { bundlePath, cachePath, request, file } = workerData
  const text = file === undefined ? Promise.resolve(request.text) : readWhole(file)
  text.catch(() => {})
  const code = fs.readFileSync(bundlePath)
  const key = Buffer.from(
    ['svc-bundle-cache', 2, process.version, process.arch, code.length].join(' ') + '\\n',
  )
  const cachedData = readCache()
  const script = new vm.Script(code.toString('utf8'), {
    filename: '[worker eval]',
    // import() in the bundle (a clone's import(name)) loads as it did from the evaluated bundle.
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    ...(cachedData === undefined ? {} : { cachedData }),
  })
  const stale = cachedData === undefined || script.cachedDataRejected === true
  // Before the bundle's own listener: after a failed read, the finish is no request for it.
  parentPort.on('message', (message) => {
    if (message !== ${JSON.stringify(FINISH)}) return
    if (stale) writeCache()
    process.exit(0)
  })
  script.runInThisContext()
  text.then(
    (value) => parentPort.emit('message', { ...request, text: value }),
    (error) => parentPort.postMessage({ type: 'read-failed', code: error.code, message: error.message }),
  )

  // One read of the whole file on the thread pool, which goes on while this thread compiles; a
  // pipe or device (<(curl …)) has no size to read at once and is read as before.
  function readWhole(path) {
    return new Promise((resolve, reject) => {
      const fd = fs.openSync(path, 'r')
      const stat = fs.fstatSync(fd)
      if (!stat.isFile() || stat.size === 0) {
        try {
          resolve(fs.readFileSync(fd, 'utf8'))
        } finally {
          fs.closeSync(fd)
        }
        return
      }
      const buffer = Buffer.allocUnsafe(stat.size)
      const next = (offset) =>
        fs.read(fd, buffer, offset, buffer.length - offset, offset, (error, read) => {
          if (error || read === 0 || offset + read === buffer.length) {
            fs.close(fd, () => {})
            if (error) reject(error)
            else resolve(buffer.toString('utf8', 0, offset + read))
          } else next(offset + read)
        })
      next(0)
    })
  }

  function readCache() {
    try {
      const cache = fs.readFileSync(cachePath)
      const start = key.length + code.length
      const same =
        cache.length > start &&
        cache.subarray(0, key.length).equals(key) &&
        cache.subarray(key.length, start).equals(code)
      return same ? cache.subarray(start) : undefined
    } catch {
      return undefined
    }
  }

  function writeCache() {
    const temporary = [cachePath, process.pid, threadId, Date.now(), 'tmp'].join('.')
    try {
      const data = script.createCachedData()
      fs.mkdirSync(dirname(cachePath), { recursive: true })
      try {
        fs.writeFileSync(join(dirname(cachePath), '.gitignore'), '# svc generate: a cache, never committed\\n*\\n', { flag: 'wx' })
      } catch {}
      fs.writeFileSync(temporary, Buffer.concat([key, code, data]), { flag: 'wx' })
      fs.renameSync(temporary, cachePath)
    } catch {
      try {
        fs.rmSync(temporary, { force: true })
      } catch {}
    }
  }
})()
`
