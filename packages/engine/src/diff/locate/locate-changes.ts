import { detectTextKind } from '../../input/detect-protocol.js'
import { DocumentError } from '../../input/document-error.js'
import { locatePaths, type PathPosition } from '../../input/issue-positions.js'
import { DEFAULT_LIMITS } from '../../input/limits.js'
import { parseLocation, type ParseIssue } from '../../issues/index.js'
import { readOpenApi, type ApiSource, type ParseApiOptions } from '../../parse-api.js'
import type { Change, ChangelogIssues } from '../changelog.js'
import { pointerSegments, sourcePath } from './oas-source-path.js'

/** Where a change is, in one of the two documents a changelog compared. */
export type ChangePosition = PathPosition & {
  /** `after` (the new document) unless the place exists only in the old one, as for a removal. */
  readonly side: 'before' | 'after'
}

/** A 1-based position in a document text, and the file when a relative `$ref` brought it in. */
export type SourcePosition = Omit<PathPosition, 'exact'>

/** The positions of a changelog's changes and of its parse issues, in the changelog's order. */
export type ChangelogPositions = {
  readonly changes: readonly (ChangePosition | undefined)[]
  readonly issues: {
    readonly before: readonly (SourcePosition | undefined)[]
    readonly after: readonly (SourcePosition | undefined)[]
  }
}

export type LocateChangesOptions = Pick<ParseApiOptions, 'readFile' | 'limits'>

/** Finds the positions of diff locations (JSON pointers or schema coordinates) in one text. */
type Locator = {
  locate(locations: readonly string[]): (PathPosition | undefined)[]
  /** Parse issue locations (`paths:/pets:get`), OpenAPI only. */
  locateIssues(locations: readonly string[]): (PathPosition | undefined)[]
}

/**
 * The line and column of each change of a changelog: in `after` (the new document) when the place
 * is there, else in `before` when it is given and has it (a removal), else at the nearest
 * ancestor that `after` has (`exact: false`). OpenAPI locations are JSON pointers, parameters
 * addressed as `…/parameters/<in>/<name>` (found in the real array); a Swagger 2.0 document is
 * mapped back from OpenAPI 3 terms where it has a counterpart. GraphQL locations are schema
 * coordinates. A side that cannot be read gives no positions rather than an error. Parse issues
 * without a position get one in their own side.
 *
 * @example
 * const changelog = await diffDocuments(old, next)
 * const { changes } = await locateChanges(changelog, { before: old, after: next })
 * changes[0] // { side: 'after', line: 12, column: 5, exact: true }
 */
export async function locateChanges(
  changelog: { readonly changes: readonly Pick<Change, 'location'>[]; issues?: ChangelogIssues },
  sides: { readonly before?: ApiSource | undefined; readonly after?: ApiSource | undefined },
  options: LocateChangesOptions = {},
): Promise<ChangelogPositions> {
  const after = sides.after && (await createLocator(sides.after, options))
  const locations = changelog.changes.map((change) => change.location)
  const inAfter = after?.locate(locations) ?? []
  // Only what the new document lacks is looked for in the old one, read only when needed.
  const missing = locations.flatMap((_, index) => (inAfter[index]?.exact ? [] : [index]))
  const needsBefore = missing.length > 0 || (changelog.issues?.before.length ?? 0) > 0
  const before =
    sides.before && needsBefore ? await createLocator(sides.before, options) : undefined
  const found = before?.locate(missing.map((index) => locations[index]!)) ?? []
  const inBefore = new Map(missing.map((index, i) => [index, found[i]]))
  const changes = locations.map((_, index): ChangePosition | undefined => {
    const [next, old] = [inAfter[index], inBefore.get(index)]
    if (next?.exact) return { ...next, side: 'after' }
    if (old?.exact) return { ...old, side: 'before' }
    if (next) return { ...next, side: 'after' }
    return old ? { ...old, side: 'before' } : undefined
  })
  return {
    changes,
    issues: {
      before: issuePositions(changelog.issues?.before ?? [], before),
      after: issuePositions(changelog.issues?.after ?? [], after),
    },
  }
}

function issuePositions(
  issues: readonly ParseIssue[],
  locator: Locator | undefined,
): (SourcePosition | undefined)[] {
  const located = locator?.locateIssues(issues.map((issue) => issue.location)) ?? []
  return issues.map((issue, index) => {
    if (issue.line !== undefined && issue.column !== undefined)
      return { line: issue.line, column: issue.column, ...(issue.file ? { file: issue.file } : {}) }
    const position = located[index]
    if (!position) return undefined
    const { exact: _exact, ...rest } = position
    return rest
  })
}

async function createLocator(
  source: ApiSource,
  options: LocateChangesOptions,
): Promise<Locator | undefined> {
  try {
    if (detectTextKind(source.text) === 'sdl') {
      const { sdlPositions } = await import('./sdl-positions.js')
      let position: ReturnType<typeof sdlPositions>
      try {
        position = sdlPositions(source.text)
      } catch {
        // Not SDL after all (the diff would have said so): no positions.
        return undefined
      }
      return {
        locate: (locations) => locations.map(position),
        // GraphQL parse issues come with their positions.
        locateIssues: (locations) => locations.map(() => undefined),
      }
    }
    const limits = { ...DEFAULT_LIMITS, ...options.limits }
    const read = await readOpenApi(source, options, limits)
    const swagger = read.version === '2.0'
    const locate = (paths: readonly { path: readonly string[]; complete: boolean }[]) =>
      locatePaths(
        paths.map(({ path }) => path),
        read.decoded,
        read.origins,
      ).map((position, index) => {
        const { path, complete } = paths[index]!
        // The document itself (`''`), or a place none of whose ancestors is in the text.
        const found = position ?? { line: 1, column: 1, exact: path.length === 0 }
        return complete ? found : { ...found, exact: false }
      })
    return {
      locate: (locations) =>
        locate(
          locations.map((location) =>
            sourcePath(pointerSegments(location), read.document, swagger),
          ),
        ),
      locateIssues: (locations) =>
        locate(
          locations.map((location) => sourcePath(parseLocation(location), read.document, swagger)),
        ),
    }
  } catch (error) {
    if (error instanceof DocumentError) return undefined
    throw error
  }
}
