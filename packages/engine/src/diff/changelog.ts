import type { ParseIssue } from '../issues/parse-issue.js'
import { readablePath } from './readable-path.js'
import { RULES, type RuleId } from './rules.js'

/** How badly a change can hurt a client that worked with the old document. */
export type ChangeLevel = 'breaking' | 'warning' | 'info'

/** Most harmful first: the order of `counts` and of the changelog. */
export const CHANGE_LEVELS = [
  'breaking',
  'warning',
  'info',
] as const satisfies readonly ChangeLevel[]

/** Sections of an OpenAPI document, as keys of {@link ChangeSummary.details}. */
export type OasSection =
  | 'operations'
  | 'webhooks'
  | 'schemas'
  | 'parameters'
  | 'requestBodies'
  | 'responses'
  | 'headers'
  | 'securitySchemes'
  | 'servers'
  | 'tags'

/** Sections of a GraphQL schema, as keys of {@link ChangeSummary.details}. */
export type GqlSection = 'types' | 'fields' | 'arguments' | 'enumValues' | 'directives'

/**
 * Descriptions, summaries, titles, examples and `externalDocs`, in either protocol: changes that
 * alter what a reader is told, never what a client sends or receives.
 */
export type DocumentationSection = 'documentation'

export type ChangeSection = OasSection | GqlSection | DocumentationSection

export type ChangeDelta = { added: number; deleted: number; modified: number }

/** SPEC §2 ChangeSummary: only sections with a change appear in `details`. */
export type ChangeSummary = {
  readonly diff: boolean
  readonly details: Readonly<Partial<Record<ChangeSection, Readonly<ChangeDelta>>>>
}

/** SPEC §2 ChangeSeverity: how many changelog entries there are of each level. */
export type ChangeCounts = {
  readonly breaking: number
  readonly warning: number
  readonly info: number
}

/** One changelog entry: a rule of the catalogue that fired at one place. */
export type Change = {
  readonly id: RuleId
  readonly level: ChangeLevel
  /** One sentence for a human: what changed, naming the thing. */
  readonly message: string
  /**
   * Where it applies. OpenAPI: a JSON pointer into the document (`/paths/~1pets/get/…`,
   * `/components/schemas/Pet/properties/name`); parameters are addressed by location and name
   * (`…/parameters/query/limit`). GraphQL: a schema coordinate (`Query.user(id:)`, `Role.ADMIN`,
   * `@auth(role:)`).
   */
  readonly location: string
  /**
   * The location for a reader. OpenAPI: the endpoint, the part of it and the property path
   * (`GET /pets/{petId} › response 200 › body.owner.email`, `GET /pets › query parameter limit`,
   * `components › schemas › Pet › name`), empty for the whole document. GraphQL: the coordinate,
   * as `location` has it.
   */
  readonly path: string
  /** The operation it belongs to (`GET /pets`, `webhook petCreated (POST)`), when it belongs to one. */
  readonly operation?: string
  /**
   * For a change inside a shared component: the operations that reach it, sorted. The change is
   * listed once, at the component, instead of once per operation.
   */
  readonly operations?: readonly string[]
}

/** What `diffDocuments` returns, what the hub stores and serves, what `svc diff --json` prints. */
export type Changelog = {
  readonly summary: ChangeSummary
  readonly counts: ChangeCounts
  /** Breaking first, then warnings, then info; within a level by location, then rule id. */
  readonly changes: readonly Change[]
  /**
   * Present only when a side has error-level parse issues: what each side failed to parse, the
   * reason behind its `*-unparsable` changes. Warnings and debug issues are left out.
   */
  readonly issues?: ChangelogIssues
}

/** A parse issue of level `error`: what made the parse leave something out. */
export type ErrorIssue = ParseIssue & { readonly level: 'error' }

/** The error-level parse issues of each side, as `svc check` reports them. */
export type ChangelogIssues = {
  readonly before: readonly ErrorIssue[]
  readonly after: readonly ErrorIssue[]
}

export type ChangeExtra = Pick<Change, 'operation' | 'operations'>

/** Collects changes and section counts while a diff walks two documents. */
export class ChangelogBuilder {
  readonly #changes: Change[] = []
  readonly #details: Partial<Record<ChangeSection, ChangeDelta>> = {}
  readonly #seen = new Set<string>()
  readonly #counts: Record<ChangeLevel, number> = { breaking: 0, warning: 0, info: 0 }

  /** Records one rule hit; the same rule at the same place for the same operation is kept once. */
  add(id: RuleId, location: string, message: string, extra: ChangeExtra = {}): void {
    const key = `${id}\u0000${location}\u0000${extra.operation ?? ''}`
    if (this.#seen.has(key)) return
    this.#seen.add(key)
    const change: Change = {
      id,
      level: RULES[id].level,
      message,
      location,
      path: readablePath(location),
      ...extra,
    }
    this.#changes.push(change)
    this.#counts[change.level]++
  }

  /** Counts one item of a section as added, deleted or modified. */
  count(section: ChangeSection, delta: keyof ChangeDelta, by = 1): void {
    if (by === 0) return
    const entry = (this.#details[section] ??= { added: 0, deleted: 0, modified: 0 })
    entry[delta] += by
  }

  /** The changes recorded so far, in the order they were added. */
  get changes(): readonly Change[] {
    return this.#changes
  }

  get changeCount(): number {
    return this.#changes.length
  }

  /** How many changes of a level are recorded so far. */
  countOf(level: ChangeLevel): number {
    return this.#counts[level]
  }

  finish(): Changelog {
    const details: Partial<Record<ChangeSection, ChangeDelta>> = {}
    for (const section of Object.keys(this.#details).sort() as ChangeSection[])
      details[section] = this.#details[section]
    const changes = [...this.#changes].sort(compareChanges)
    return {
      summary: { diff: changes.length > 0 || Object.keys(details).length > 0, details },
      counts: { ...this.#counts },
      changes,
    }
  }
}

/** One changelog with another's changes and section counts folded in. */
export function mergeChangelogs(a: Changelog, b: Changelog): Changelog {
  if (b.changes.length === 0 && Object.keys(b.summary.details).length === 0) return a
  const details: Partial<Record<ChangeSection, ChangeDelta>> = {}
  for (const log of [a, b])
    for (const [section, delta] of Object.entries(log.summary.details) as [
      ChangeSection,
      ChangeDelta,
    ][]) {
      const entry = (details[section] ??= { added: 0, deleted: 0, modified: 0 })
      entry.added += delta.added
      entry.deleted += delta.deleted
      entry.modified += delta.modified
    }
  const sorted: Partial<Record<ChangeSection, ChangeDelta>> = {}
  for (const section of Object.keys(details).sort() as ChangeSection[])
    sorted[section] = details[section]
  const changes = [...a.changes, ...b.changes].sort(compareChanges)
  const counts = { breaking: 0, warning: 0, info: 0 }
  for (const change of changes) counts[change.level]++
  return { summary: { diff: true, details: sorted }, counts, changes }
}

function compareChanges(a: Change, b: Change): number {
  return (
    CHANGE_LEVELS.indexOf(a.level) - CHANGE_LEVELS.indexOf(b.level) ||
    compareText(a.operation ?? '', b.operation ?? '') ||
    compareText(a.location, b.location) ||
    compareText(a.id, b.id)
  )
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
