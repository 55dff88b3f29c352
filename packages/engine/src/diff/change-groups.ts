import { CHANGE_LEVELS, type ChangeLevel } from './changelog.js'
import { PATH_SEPARATOR, readableSegments } from './readable-path.js'

/** What a change needs to be grouped: the engine's, or one a hub served. */
export type GroupableChange = {
  readonly level: ChangeLevel
  readonly location: string
  readonly operation?: string | undefined
}

/**
 * `endpoint`: an operation or webhook (`GET /pets`); `component`: an OpenAPI component
 * (`components › schemas › Pet`); `type`: a GraphQL type or directive (`Query`, `@auth`);
 * `document`: the rest (servers, tags, info, the whole document).
 */
export type ChangeGroupKind = 'endpoint' | 'component' | 'type' | 'document'

export type ChangeGroup<C extends GroupableChange> = {
  readonly kind: ChangeGroupKind
  /** The endpoint, component or type; empty for the document group. */
  readonly title: string
  /** Its worst level. */
  readonly level: ChangeLevel
  /** Most harmful first, in the changelog's order within a level. */
  readonly entries: readonly ChangeEntry<C>[]
}

export type ChangeEntry<C> = {
  readonly change: C
  /** The readable path below the group's title (`response 200 › body.name`); empty at it. */
  readonly path: string
}

const KIND_ORDER: readonly ChangeGroupKind[] = ['endpoint', 'component', 'type', 'document']

/**
 * A changelog as a reader takes it in: by endpoint (method and path), then by component (or
 * GraphQL type), then the rest of the document; within each kind the groups with the worst
 * changes first, then by title. Each entry carries its readable path below the group's title.
 *
 * @example
 * for (const group of groupChanges(changelog.changes)) print(group.title, group.entries)
 */
export function groupChanges<C extends GroupableChange>(changes: readonly C[]): ChangeGroup<C>[] {
  const groups = new Map<
    string,
    { kind: ChangeGroupKind; title: string; entries: ChangeEntry<C>[] }
  >()
  for (const change of changes) {
    const { kind, title, path } = placeOf(change)
    const key = `${kind}\u0000${title}`
    let group = groups.get(key)
    if (!group) {
      group = { kind, title, entries: [] }
      groups.set(key, group)
    }
    group.entries.push({ change, path })
  }
  return [...groups.values()]
    .map((group) => {
      const entries = [...group.entries].sort((a, b) => rank(a.change.level) - rank(b.change.level))
      return { ...group, level: entries[0]!.change.level, entries }
    })
    .sort(
      (a, b) =>
        KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
        rank(a.level) - rank(b.level) ||
        (a.title < b.title ? -1 : a.title > b.title ? 1 : 0),
    )
}

function rank(level: ChangeLevel): number {
  return CHANGE_LEVELS.indexOf(level)
}

function placeOf(change: GroupableChange): { kind: ChangeGroupKind; title: string; path: string } {
  const { location, operation } = change
  const segments = readableSegments(location)
  if (operation !== undefined) {
    const rest = segments[0] === operation ? segments.slice(1) : segments
    return { kind: 'endpoint', title: operation, path: rest.join(PATH_SEPARATOR) }
  }
  if (location.startsWith('/components/') && segments.length >= 3)
    return {
      kind: 'component',
      title: segments.slice(0, 3).join(PATH_SEPARATOR),
      path: segments.slice(3).join(PATH_SEPARATOR),
    }
  if (/^\/(?:paths|webhooks)\//.test(location) && segments.length > 0)
    return {
      kind: 'endpoint',
      title: segments[0]!,
      path: segments.slice(1).join(PATH_SEPARATOR),
    }
  if (location !== '' && !location.startsWith('/')) {
    // `Query.user(id:)` is in `Query`, `@auth(role:)` in `@auth`.
    const end = location.search(/[.(]/)
    if (end <= 0) return { kind: 'type', title: location, path: '' }
    const rest = location.slice(end)
    return {
      kind: 'type',
      title: location.slice(0, end),
      path: rest.startsWith('.') ? rest.slice(1) : rest,
    }
  }
  return { kind: 'document', title: '', path: segments.join(PATH_SEPARATOR) }
}
