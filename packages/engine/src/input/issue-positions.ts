import type { ParseIssue, RecordedIssue } from '../issues/index.js'
import type { DecodedDocument } from './decode-document.js'
import type { ContentOrigin } from './external-refs.js'
import { pathKey } from './json-positions.js'

type Lookup = { document: DecodedDocument; file?: string; path: readonly string[] }

/**
 * Adds 1-based `line`/`column` (and `file` for content imported from another file) to issues,
 * locating all of them in one pass per source file. Paths that no longer exist in the source
 * (after a 2.0 conversion, say) simply get no position.
 */
export function attachPositions(
  issues: readonly RecordedIssue[],
  root: DecodedDocument | undefined,
  origins: readonly ContentOrigin[] = [],
  /** Maps a location to the source's own layout, when the parser saw a converted document. */
  toSource: (path: readonly string[]) => readonly string[] = (path) => path,
): ParseIssue[] {
  const lookups = issues.map((issue) => lookupFor(toSource(issue.path), root, origins))
  const byDocument = new Map<DecodedDocument, (readonly string[])[]>()
  for (const lookup of lookups) {
    if (!lookup) continue
    let paths = byDocument.get(lookup.document)
    if (!paths) byDocument.set(lookup.document, (paths = []))
    // Every ancestor too, so a path the source lacks still gets the nearest existing position.
    for (let length = 1; length <= lookup.path.length; length++)
      paths.push(lookup.path.slice(0, length))
  }
  const found = new Map<DecodedDocument, Map<string, { line: number; column: number }>>()
  for (const [document, paths] of byDocument) found.set(document, document.locate(paths))

  return issues.map((issue, index) => {
    const { path: _path, ...rest } = issue
    const lookup = lookups[index]
    const position = lookup ? nearest(found.get(lookup.document)!, lookup.path) : undefined
    const located: ParseIssue = position ? { ...rest, ...position } : rest
    return lookup?.file ? { ...located, file: lookup.file } : located
  })
}

function lookupFor(
  path: readonly string[],
  root: DecodedDocument | undefined,
  origins: readonly ContentOrigin[],
): Lookup | undefined {
  let best: ContentOrigin | undefined
  for (const origin of origins) {
    if (origin.at.length > path.length || (best && best.at.length >= origin.at.length)) continue
    if (origin.at.every((segment, i) => path[i] === segment)) best = origin
  }
  if (best)
    return {
      document: best.document,
      file: best.file,
      path: [...best.pointer, ...path.slice(best.at.length)],
    }
  return root ? { document: root, path } : undefined
}

/** The position of the path, or of its nearest ancestor that exists in the source. */
function nearest(found: Map<string, { line: number; column: number }>, path: readonly string[]) {
  for (let length = path.length; length > 0; length--) {
    const position = found.get(pathKey(path.slice(0, length)))
    if (position) return position
  }
  return undefined
}
