/**
 * Merges AutoRest's `x-ms-paths` into `paths`, and drops the extension. AutoRest describes there
 * the endpoints that `paths` cannot hold, those told apart by a query string (`/vaults/{name}?op=purge`),
 * and generates their methods like any other: an operation moved between the two is no change,
 * and one only in `x-ms-paths` is an endpoint like the others. Left as an extension, swagger2openapi
 * kept them out of the converted paths, so svc saw no such endpoint at all. A key that `paths`
 * holds already, or that does not start with `/`, is left out. Mutates `document`, a copy.
 */
export function mergeXMsPaths(document: Record<string, unknown>): void {
  const extra = document['x-ms-paths']
  if (extra === undefined) return
  delete document['x-ms-paths']
  if (!isObject(extra)) return
  const paths = isObject(document.paths) ? document.paths : {}
  for (const [key, item] of Object.entries(extra)) {
    if (!key.startsWith('/') || key in paths) continue
    paths[key] = item
  }
  document.paths = paths
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
