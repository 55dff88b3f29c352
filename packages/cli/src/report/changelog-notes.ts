import { readFileSync } from 'node:fs'
import { locateChanges, type ApiSource, type ChangePosition } from '@svc/engine'
import { applyWaivers, today, type WaivedBy, type WaiverReport } from '../waivers/apply-waivers.js'
import type { WaiverFile } from '../waivers/waiver-file.js'
import { describeFailure, type GateFailure } from './gate.js'
import { displayPath, waiverNotes, type Place } from './report.js'

/** A change as the CLI receives it, from the engine or from the hub. */
export type NotableChange = {
  readonly id: string
  readonly level: 'breaking' | 'warning' | 'info'
  readonly location: string
  readonly operation?: string | undefined
  readonly operations?: readonly string[] | undefined
}

type NotableIssue = {
  readonly location: string
  readonly line?: number | undefined
  readonly column?: number | undefined
  readonly file?: string | undefined
}

/** A changelog from the engine (`svc diff`) or the hub (`svc api push`). */
export type NotableChangelog = {
  readonly changes: readonly NotableChange[]
  readonly issues?:
    | { readonly before: readonly NotableIssue[]; readonly after: readonly NotableIssue[] }
    | undefined
}

/** What the CLI adds to a changelog's changes: where each is, and what waived it. */
export type ChangeNote = { readonly place?: Place; readonly waived?: WaivedBy }

export type ChangelogNotes = {
  /** The new document's absolute path, when it is a local file: where a place without `file` is. */
  readonly document?: string
  /** One per change of the changelog, in its order. */
  readonly changes: readonly ChangeNote[]
  /** One per parse issue of each side, in its order. */
  readonly issues: {
    readonly before: readonly (Place | undefined)[]
    readonly after: readonly (Place | undefined)[]
  }
  readonly waivers?: WaiverReport
}

/** A document the CLI read: its text, where it came from, whether that is a local file. */
export type NotedSide = { readonly text: string; readonly origin: string; readonly isFile: boolean }

export type NoteOptions = {
  /** The old document; only a local file is looked in (for a removal). */
  readonly before?: NotedSide | undefined
  readonly after?: NotedSide | undefined
  /** Find lines and columns (every format but text shows them). */
  readonly positions: boolean
  readonly waivers?: WaiverFile | undefined
  /** `YYYY-MM-DD`, UTC: the day waivers expire against. */
  readonly today?: string | undefined
}

/**
 * The notes of a changelog: the line and column of each change (in the new document, in the old
 * one for a removal when it is a file, else at the nearest place the new one has) and of each
 * parse issue, and which waiver waives each change. Undefined when there is nothing to note.
 *
 * @example
 * const notes = await noteChangelog(changelog, { before, after, positions: true, waivers })
 */
export async function noteChangelog(
  changelog: NotableChangelog,
  options: NoteOptions,
): Promise<ChangelogNotes | undefined> {
  if (!options.positions && !options.waivers) return undefined
  const before = options.before?.isFile ? options.before : undefined
  const after = options.after
  const positions =
    options.positions && (before || after)
      ? await locateChanges(
          // The hub's rule ids and issue types are strings the engine reads as its own.
          changelog as Parameters<typeof locateChanges>[0],
          { before: before && source(before), after: after && source(after) },
          before?.isFile || after?.isFile
            ? { readFile: (path: string) => readFileSync(path, 'utf8') }
            : {},
        )
      : undefined
  const waivers = options.waivers
    ? applyWaivers(changelog.changes, options.waivers, options.today ?? today())
    : undefined
  const placeOf = (position: ChangePosition | undefined): Place | undefined => {
    if (!position) return undefined
    const side = position.side === 'before' ? before : after
    const file = position.file ?? (side?.isFile ? side.origin : undefined)
    return { line: position.line, column: position.column, ...(file ? { file } : {}) }
  }
  const issuePlaces = (side: NotedSide | undefined, places: readonly (Place | undefined)[]) =>
    side
      ? places.map((place) => {
          if (!place) return undefined
          const file = place.file ?? (side.isFile ? side.origin : undefined)
          return { line: place.line, column: place.column, ...(file ? { file } : {}) }
        })
      : []
  return {
    ...(after?.isFile ? { document: after.origin } : {}),
    changes: changelog.changes.map((_, index) => {
      const place = placeOf(positions?.changes[index])
      const waived = waivers?.waived[index]
      return { ...(place ? { place } : {}), ...(waived ? { waived } : {}) }
    }),
    issues: {
      before: issuePlaces(before, positions?.issues.before ?? []),
      after: issuePlaces(after, positions?.issues.after ?? []),
    },
    ...(waivers ? { waivers: waivers.report } : {}),
  }
}

function source(side: NotedSide): ApiSource {
  return { text: side.text, origin: side.origin }
}

/**
 * The gate once waivers are applied: a failure stands only if changes no waiver covers still
 * cross `--fail-on`. Waivers only ever lift a failure, never make one.
 */
export function gateAfterWaivers(
  changes: readonly NotableChange[],
  notes: ChangelogNotes | undefined,
  failure: GateFailure | undefined,
): GateFailure | undefined {
  if (failure === undefined || notes?.waivers === undefined) return failure
  const counts = { breaking: 0, warning: 0, info: 0 }
  changes.forEach((change, index) => {
    if (!notes.changes[index]?.waived) counts[change.level]++
  })
  const crossed = describeFailure({ counts }, failure.failOn)
  return crossed === undefined ? undefined : { failOn: failure.failOn, crossed }
}

/**
 * The changes as `--json` prints them: each as the changelog has it, with `line`/`column` where
 * known (and `file` when that is not the new document), and `waived` when a waiver covers it.
 */
export function jsonChanges<C extends object>(
  changes: readonly C[],
  notes: ChangelogNotes | undefined,
): readonly C[] {
  if (!notes) return changes
  return changes.map((change, index) => {
    const { place, waived } = notes.changes[index] ?? {}
    return {
      ...change,
      ...(place
        ? {
            line: place.line,
            column: place.column,
            ...(place.file !== undefined && place.file !== notes.document
              ? { file: place.file }
              : {}),
          }
        : {}),
      ...(waived
        ? {
            waived: {
              reason: waived.reason,
              ...(waived.expires ? { expires: waived.expires } : {}),
            },
          }
        : {}),
    }
  })
}

/** The `waivers` member of `--json`: the file, how many changes it waived, what to look at. */
export function jsonWaivers(notes: ChangelogNotes | undefined): { waivers?: WaiverReport } {
  return notes?.waivers ? { waivers: notes.waivers } : {}
}

/** The stderr lines for the waivers to look at: `warning: svc-waivers.yaml:12: waiver 3 (…) expired …`. */
export function waiverWarnings(notes: ChangelogNotes | undefined, cwd: string): string[] {
  const file = notes?.waivers?.file
  if (file === undefined) return []
  return waiverNotes(notes?.waivers).map(
    (note) => `warning: ${displayPath(file, cwd)}:${note.line}: ${note.text}`,
  )
}
