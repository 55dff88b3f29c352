import { groupChanges, readablePath, RULES, type ChangeGroup } from '@svc/engine'
import type { Change, ChangelogIssues } from '@svc/hub-api'
import { Badge, Ident, Prose } from '../../components.js'

const CHANGE_LEVELS = ['breaking', 'warning', 'info'] as const

/** What a change at its group's title is at. */
const HERE = {
  endpoint: 'the operation',
  component: 'the component',
  type: 'the type',
  document: 'the document',
} as const

/**
 * A changelog as a reader takes it in: a section per endpoint (method and path), then per
 * component (GraphQL: per type), then the rest of the document, the worst first; each change
 * with its level, rule, message and readable path below the section's title. Documentation
 * changes come last, folded, each with its whole path.
 */
export function ChangeList({ changes }: { changes: readonly Change[] }) {
  const documentation = changes.filter(isDocumentation)
  const groups = groupChanges(changes.filter((change) => !isDocumentation(change)))
  return (
    <>
      {groups.map((group) => (
        <GroupSection group={group} />
      ))}
      {documentation.length > 0 ? (
        <details class="card" data-testid="changes-documentation">
          <summary>
            <strong>Documentation</strong> <Badge kind="info">{documentation.length}</Badge>{' '}
            <span class="muted">
              descriptions, summaries, examples: nothing a client sends or gets
            </span>
          </summary>
          <ChangeTable
            entries={documentation.map((change) => ({
              change,
              path: readablePath(change.location),
            }))}
            here={HERE.document}
          />
        </details>
      ) : null}
    </>
  )
}

function GroupSection({ group }: { group: ChangeGroup<Change> }) {
  const counts = CHANGE_LEVELS.map(
    (level) =>
      [level, group.entries.filter(({ change }) => change.level === level).length] as const,
  )
  return (
    <section data-testid="change-group" data-kind={group.kind} data-level={group.level}>
      <h3 class="row">
        {group.kind === 'document' ? 'Other places' : <Ident text={group.title} code />}
        {counts.map(([level, count]) =>
          count > 0 ? <Badge kind={level}>{`${count} ${level}`}</Badge> : null,
        )}
      </h3>
      <ChangeTable entries={group.entries} here={HERE[group.kind]} titled={group.title} />
    </section>
  )
}

function ChangeTable(props: {
  entries: readonly { change: Change; path: string }[]
  here: string
  /** The group's title: an operation it names is not repeated below a change. */
  titled?: string
}) {
  return (
    <table class="stacked">
      <thead>
        <tr>
          <th>Level</th>
          <th>Rule</th>
          <th>Change</th>
          <th>Where</th>
        </tr>
      </thead>
      <tbody>
        {props.entries.map(({ change, path }) => {
          const operations = (
            change.operations ?? (change.operation ? [change.operation] : [])
          ).filter((operation) => operation !== props.titled)
          return (
            <tr data-level={change.level}>
              <td class="inline">
                <Badge kind={change.level}>{change.level}</Badge>
              </td>
              <td class="inline">
                <Ident text={change.id} />
              </td>
              <td>
                <Prose text={change.message} />
                {operations.length > 0 ? (
                  <div class="muted">
                    {change.operations ? 'Affects ' : ''}
                    {operations.map((operation, i) => (
                      <>
                        {i > 0 ? ', ' : ''}
                        <Ident text={operation} code />
                      </>
                    ))}
                  </div>
                ) : null}
              </td>
              <td data-testid="change-path">
                {path === '' ? <span class="muted">{props.here}</span> : <Ident text={path} />}
              </td>
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}

/** What either document failed to parse: each item it names is also a change below. */
export function ParseErrors({ issues }: { issues: ChangelogIssues }) {
  const rows = [
    ...issues.before.map((issue) => ({ side: 'previous', issue })),
    ...issues.after.map((issue) => ({ side: 'this revision', issue })),
  ]
  return (
    <section data-testid="changes-parse-errors">
      <h2>
        <Badge kind="error">{rows.length}</Badge> Parse error{rows.length === 1 ? '' : 's'}
      </h2>
      <p class="lead">
        What a document failed to parse could not be compared; each item named here is a change
        below.
      </p>
      <table class="stacked">
        <thead>
          <tr>
            <th>Document</th>
            <th>Location</th>
            <th>Error</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ side, issue }) => (
            <tr>
              <td class="inline">{side}</td>
              <td>
                <Ident text={issue.location} />
              </td>
              <td>
                <Prose text={issue.message} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}

function isDocumentation(change: Change): boolean {
  // A changelog stored by an older hub may name a rule this one no longer has.
  return (
    (RULES as Partial<Record<string, { section: string }>>)[change.id]?.section === 'documentation'
  )
}
