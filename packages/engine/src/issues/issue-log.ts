import type { IssueKind } from './catalogue.js'
import type { ParseIssue } from './parse-issue.js'

/** A recorded issue before positions are attached; `path` is the location split into segments. */
export type RecordedIssue = {
  -readonly [K in keyof ParseIssue]: ParseIssue[K]
} & { path: readonly string[] }

/** Joins a trail with `:`; a `:` inside a segment (`/users/{id}:archive`) is written `%3A`. */
export function formatLocation(path: readonly string[]): string {
  let location = ''
  for (let i = 0; i < path.length; i++) {
    const segment = path[i]!
    if (i > 0) location += ':'
    location += segment.includes(':') ? segment.replaceAll(':', '%3A') : segment
  }
  return location
}

/** `paths:/a%3Ab:get` → `['paths', '/a:b', 'get']`: the path {@link formatLocation} joined. */
export function parseLocation(location: string): string[] {
  if (location === '') return []
  return location.split(':').map((segment) => segment.replaceAll('%3A', ':'))
}

/** Collects issues in the order they were found. Locations join path segments with `:` (SPEC §7.9). */
export class IssueLog {
  readonly #issues: RecordedIssue[] = []
  /** The same finding reached twice (a path-level parameter shared by four methods) is logged once. */
  readonly #seen = new Set<string>()

  add(
    kind: IssueKind,
    path: readonly string[],
    message: string,
    cause?: string,
    position?: { line: number; column: number },
  ): void {
    const location = formatLocation(path)
    const key = `${kind.type}\u0000${kind.level}\u0000${location}\u0000${message}`
    if (this.#seen.has(key)) return
    this.#seen.add(key)
    const issue: RecordedIssue = {
      protocol: kind.protocol,
      type: kind.type,
      level: kind.level,
      message,
      location,
      path: [...path],
    }
    if (cause !== undefined && kind.level === 'error') issue.cause = cause
    if (position) {
      issue.line = position.line
      issue.column = position.column
    }
    this.#issues.push(issue)
  }

  get size(): number {
    return this.#issues.length
  }

  get recorded(): readonly RecordedIssue[] {
    return this.#issues
  }
}
