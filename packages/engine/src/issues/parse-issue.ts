import type { IssueLevel, IssueProtocol, IssueType } from './catalogue.js'

/** One problem found while parsing, as it appears in `manifest.parseIssues` and `svc check --json`. */
export type ParseIssue = {
  readonly protocol: IssueProtocol
  readonly type: IssueType
  readonly level: IssueLevel
  readonly message: string
  /** Colon-joined trail of the place in the document, e.g. `components:schemas:User`. */
  readonly location: string
  /** Only on errors: the underlying reason. */
  readonly cause?: string
  /** 1-based position of `location` in the source, when it could be recovered. */
  readonly line?: number
  readonly column?: number
  /** The file that holds `location` when it came from a relative `$ref` to another file. */
  readonly file?: string
}

/** Counts per level, as in the `summary` of `svc check --json`. */
export type IssueSummary = {
  readonly error: number
  readonly warning: number
  readonly debug: number
}

export function summarizeIssues(issues: readonly ParseIssue[]): IssueSummary {
  let error = 0
  let warning = 0
  let debug = 0
  for (const issue of issues) {
    if (issue.level === 'error') error++
    else if (issue.level === 'warning') warning++
    else debug++
  }
  return { error, warning, debug }
}
