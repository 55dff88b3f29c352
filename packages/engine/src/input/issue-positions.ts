import type { ParseIssue, RecordedIssue } from '../issues/index.js'
import type { DecodedDocument } from './decode-document.js'
import type { ContentOrigin } from './external-refs.js'
import { pathKey } from './json-positions.js'

type Lookup = { document: DecodedDocument; file?: string; path: readonly string[] }

/** Where a document path is in its source: its own position, or its nearest existing ancestor's. */
export type PathPosition = {
  readonly line: number
  readonly column: number
  /** The file that holds the place, when a relative `$ref` imported it from another file. */
  readonly file?: string
  /** false when the path itself is not in the source and this is an ancestor's position. */
  readonly exact: boolean
}

/**
 * Adds 1-based `line`/`column` (and `file` for content imported from another file) to issues,
 * locating all of them in one pass per source file. Paths that no longer exist in the source
 * (after a 2.0 conversion, say) get the position of their nearest ancestor that does.
 */
export function attachPositions(
  issues: readonly RecordedIssue[],
  root: DecodedDocument | undefined,
  origins: readonly ContentOrigin[] = [],
  /** Maps a location to the source's own layout, when the parser saw a converted document. */
  toSource: (path: readonly string[]) => readonly string[] = (path) => path,
): ParseIssue[] {
  const positions = locatePaths(
    issues.map((issue) => toSource(issue.path)),
    root,
    origins,
  )
  return issues.map((issue, index) => {
    const { path: _path, ...rest } = issue
    const position = positions[index]
    if (!position) return rest
    const located: ParseIssue = { ...rest, line: position.line, column: position.column }
    return position.file ? { ...located, file: position.file } : located
  })
}

/**
 * The position of each path of the (bundled) document `root` in its source text, one pass per
 * source file; content a relative `$ref` imported is found in its own file (`file`). A path the
 * source lacks gets its nearest existing ancestor's position, with `exact: false`.
 */
export function locatePaths(
  paths: readonly (readonly string[])[],
  root: DecodedDocument | undefined,
  origins: readonly ContentOrigin[] = [],
): (PathPosition | undefined)[] {
  const lookups = paths.map((path) => lookupFor(path, root, origins))
  const byDocument = new Map<DecodedDocument, (readonly string[])[]>()
  for (const lookup of lookups) {
    if (!lookup) continue
    let wanted = byDocument.get(lookup.document)
    if (!wanted) byDocument.set(lookup.document, (wanted = []))
    // Every ancestor too, so a path the source lacks still gets the nearest existing position.
    for (let length = 1; length <= lookup.path.length; length++)
      wanted.push(lookup.path.slice(0, length))
  }
  const found = new Map<DecodedDocument, Map<string, { line: number; column: number }>>()
  for (const [document, wanted] of byDocument) found.set(document, document.locate(wanted))

  return lookups.map((lookup) => {
    if (!lookup) return undefined
    const position = nearest(found.get(lookup.document)!, lookup.path)
    if (!position) return undefined
    return lookup.file ? { ...position, file: lookup.file } : position
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
function nearest(
  found: Map<string, { line: number; column: number }>,
  path: readonly string[],
): Omit<PathPosition, 'file'> | undefined {
  for (let length = path.length; length > 0; length--) {
    const position = found.get(pathKey(path.slice(0, length)))
    if (position)
      return { line: position.line, column: position.column, exact: length === path.length }
  }
  return undefined
}
