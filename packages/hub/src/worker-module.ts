/**
 * The compiled module `name` (`./worker.js`) beside the module `from` (its `import.meta.url`), for
 * a worker thread to load: beside it in `dist`; when `from` runs from its TypeScript source (the
 * unit tests), the built one in `dist`, since a worker thread cannot load `.ts`.
 *
 * @example
 * new Worker(workerModule('./checkpoint-worker.js', import.meta.url))
 */
export function workerModule(name: string, from: string): URL {
  const url = new URL(name, from)
  if (!from.endsWith('.ts')) return url
  const at = url.pathname.lastIndexOf('/src/')
  url.pathname = `${url.pathname.slice(0, at)}/dist/${url.pathname.slice(at + 5)}`
  return url
}
