import type { Waiver, WaiverFile } from './waiver-file.js'

/** What a change needs for a waiver to match it: the changelog's own fields. */
export type WaivableChange = {
  readonly id: string
  readonly location: string
  readonly operation?: string | undefined
  readonly operations?: readonly string[] | undefined
}

/** What waived a change, as every format shows it. */
export type WaivedBy = {
  readonly reason: string
  readonly expires?: string
  /** The waiver's entry in the file; 0 for a revision's acceptance on the hub. */
  readonly entry: number
  /** Set when the hub accepted the revision's changes (`svc api accept`), not a waiver. */
  readonly accepted?: { readonly by: string; readonly at: string }
}

/** A waiver the report names: one that expired, or one that matched no change. */
export type WaiverNote = Pick<
  Waiver,
  'entry' | 'line' | 'rule' | 'operation' | 'location' | 'expires'
>

/** How a waiver file applied to a changelog. */
export type WaiverReport = {
  /** The file's absolute path. */
  readonly file: string
  /** How many changes it waived. */
  readonly waived: number
  /** Past their `expires` day: they waive nothing, and the changes they named count again. */
  readonly expired: readonly WaiverNote[]
  /** In force, but no change matched them (fixed already, or a typo in the place). */
  readonly unmatched: readonly WaiverNote[]
}

/**
 * Which change each waiver of the file waives: the first in force (not past `expires`, a day in
 * UTC, inclusive) whose rule is the change's, whose operation (if any) is the change's or one of
 * those reaching it, and whose location (if any) is the change's or one above it.
 *
 * @example
 * const { waived, report } = applyWaivers(changelog.changes, file, '2026-12-07')
 */
export function applyWaivers(
  changes: readonly WaivableChange[],
  file: WaiverFile,
  today: string,
): { readonly waived: readonly (WaivedBy | undefined)[]; readonly report: WaiverReport } {
  const inForce = file.waivers.filter((waiver) => !isExpired(waiver, today))
  const used = new Set<Waiver>()
  const waived = changes.map((change) => {
    const waiver = inForce.find((candidate) => matches(candidate, change))
    if (!waiver) return undefined
    used.add(waiver)
    return {
      reason: waiver.reason,
      entry: waiver.entry,
      ...(waiver.expires === undefined ? {} : { expires: waiver.expires }),
    }
  })
  return {
    waived,
    report: {
      file: file.path,
      waived: waived.filter(Boolean).length,
      expired: file.waivers.filter((waiver) => isExpired(waiver, today)).map(note),
      unmatched: inForce.filter((waiver) => !used.has(waiver)).map(note),
    },
  }
}

/** Today's date in UTC, `YYYY-MM-DD`: the day `expires` is compared with. */
export function today(): string {
  return new Date().toISOString().slice(0, 10)
}

function isExpired(waiver: Waiver, today: string): boolean {
  return waiver.expires !== undefined && waiver.expires < today
}

function matches(waiver: Waiver, change: WaivableChange): boolean {
  if (waiver.rule !== change.id) return false
  if (waiver.operation !== undefined) {
    const wanted = normaliseOperation(waiver.operation)
    const reached = [change.operation, ...(change.operations ?? [])]
    if (!reached.some((operation) => operation && normaliseOperation(operation) === wanted))
      return false
  }
  return waiver.location === undefined || isAtOrBelow(change.location, waiver.location)
}

/** `get  /pets` → `GET /pets`: the method in any case, spaces collapsed. */
function normaliseOperation(operation: string): string {
  const [first = '', ...rest] = operation.trim().split(/\s+/)
  const method = /^[a-z]+$/i.test(first) && rest.length > 0 ? first.toUpperCase() : first
  return [method, ...rest].join(' ')
}

/**
 * A location waives itself and everything below it: `/components/schemas/Pet` covers
 * `/components/schemas/Pet/properties/age` (not `…/Pets`), `Query.user` covers `Query.user(id:)`.
 */
function isAtOrBelow(location: string, prefix: string): boolean {
  const base = prefix.length > 1 ? prefix.replace(/\/$/, '') : prefix
  if (location === base) return true
  return location.startsWith(base) && ['/', '.', '('].includes(location[base.length]!)
}

function note(waiver: Waiver): WaiverNote {
  const { reason: _reason, ...rest } = waiver
  return rest
}
