import {
  DEFAULT_LIMITS,
  diffParsed,
  DocumentError,
  parseApi,
  summarizeIssues,
  type Changelog,
  type ChangelogIssues,
  type DiffPolicy,
  type DiffProfile,
  type IssueSummary,
  type ParseApiResult,
  type ParseIssue,
  type Protocol,
  type SourceInfo,
} from '@svc/engine'

/**
 * A pushed document to read, and the latest revision's document to diff it against, as UTF-8
 * bytes: the thread is handed their buffers (moved, not copied) and decodes them itself, since
 * copying a string of tens of megabytes into a thread holds the event loop for as long.
 */
export type AnalysisTask = {
  readonly document: Uint8Array
  readonly protocol: Protocol | undefined
  /** The largest document accepted (the engine's own limit is raised to it when lower). */
  readonly maxBytes: number
  /** The hub's limit on the pushed document's nodes once its YAML aliases are expanded. */
  readonly maxExpandedNodes: number
  readonly previous?: { readonly document: Uint8Array; readonly protocol: Protocol }
  /** Conventions the diff applies on top of its rules (`svc diff --policy`); none for a push. */
  readonly policies?: readonly DiffPolicy[]
  /** The profiles to diff with, each a changelog of its own (the parses are shared); `wire` when none. */
  readonly profiles?: readonly DiffProfile[]
}

/** A changelog per profile asked for. */
export type ProfileChangelogs = { readonly [P in DiffProfile]?: Changelog }

export type Analysis =
  | {
      readonly ok: true
      readonly source: SourceInfo
      readonly issues: IssueSummary
      /** Each issue, with its line and column where the engine finds them cheaply. */
      readonly parseIssues: readonly ParseIssue[]
      /** Absent for an API's first revision. */
      readonly changelogs?: ProfileChangelogs
    }
  | {
      readonly ok: false
      /** The engine's DocumentError, as data: the document is not an API description. */
      readonly error: { code: string; message: string; line?: number; column?: number }
    }

/**
 * Runs in a worker thread (see document-analysis.ts): parsing and diffing a description of
 * GitHub's size takes the better part of a second, which the hub's event loop must not wait for.
 * The thread is terminated when the analysis outlives its time, and dies past its heap limit.
 */
export default async function analyse(task: AnalysisTask): Promise<Analysis> {
  const text = decoder.decode(task.document)
  let parsed: ParseApiResult
  try {
    parsed = await parseApi(
      { text },
      {
        ...(task.protocol ? { protocol: task.protocol } : {}),
        // Positions for YAML and small JSON; a large JSON document's would cost a scan of it.
        positions: 'auto',
        limits: {
          maxBytes: Math.max(DEFAULT_LIMITS.maxBytes, task.maxBytes),
          maxExpandedNodes: task.maxExpandedNodes,
        },
      },
    )
  } catch (error) {
    if (!(error instanceof DocumentError)) throw error
    const { code, message, line, column } = error
    return {
      ok: false,
      error: {
        code,
        message,
        ...(line === undefined ? {} : { line }),
        ...(column === undefined ? {} : { column }),
      },
    }
  }
  const issues = summarizeIssues(parsed.parseIssues)
  const found = {
    ok: true,
    source: parsed.source,
    issues,
    parseIssues: parsed.parseIssues,
  } as const
  if (!task.previous) return found
  const previousText = decoder.decode(task.previous.document)
  const previous = await parseApi(
    { text: previousText },
    // The stored revision passed the limits it was pushed under; its time and memory count here.
    {
      protocol: task.previous.protocol,
      positions: false,
      limits: { maxBytes: Infinity, maxExpandedNodes: Infinity },
    },
  )
  const changelogs: { [P in DiffProfile]?: Changelog } = {}
  for (const profile of task.profiles?.length ? new Set(task.profiles) : ['wire' as const]) {
    const changelog = await diffParsed(
      { parsed: previous, text: previousText },
      { parsed, text },
      { profile, ...(task.policies?.length ? { policies: new Set(task.policies) } : {}) },
    )
    changelogs[profile] = withoutPositions(changelog)
  }
  return { ...found, changelogs }
}

/**
 * The changelog as `svc diff --json` prints it: its OpenAPI parse finds no positions, so the
 * OpenAPI issues lose the `line` and `column` the parse here found (GraphQL's come either way).
 */
function withoutPositions(changelog: Changelog): Changelog {
  if (!changelog.issues) return changelog
  const strip = (issues: ChangelogIssues['after']) =>
    issues.map((issue) => {
      if (issue.protocol !== 'oas') return issue
      const { line: _line, column: _column, ...unplaced } = issue
      return unplaced
    })
  return {
    ...changelog,
    issues: { before: strip(changelog.issues.before), after: strip(changelog.issues.after) },
  }
}

/** Pushed documents were checked to be UTF-8; a stored one was pushed. */
const decoder = new TextDecoder()
