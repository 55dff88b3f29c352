// Diffs the SDL, not the GqlModel: the model drops non-root field arguments and directives.
import { parse, type DocumentNode } from 'graphql'
import { ChangelogBuilder, type Changelog } from '../changelog.js'
import { diffDescription } from './diff-descriptions.js'
import { diffDirectives } from './diff-directives.js'
import { diffRoots } from './diff-roots.js'
import { diffType } from './diff-type.js'
import { readSchema } from './schema-shape.js'

/**
 * What changed from one GraphQL SDL document to another, rule by rule (see `GQL_RULES`), with
 * counts per section. Both texts must parse as GraphQL; invalid definitions in them are compared
 * as far as they can be read.
 *
 * @example
 * ```ts
 * const log = diffGraphql('type Query { me: String }', 'type Query { me: String! }')
 * log.changes[0] // { id: 'field-type-narrowed', level: 'info', location: 'Query.me', … }
 * ```
 */
export function diffGraphql(beforeText: string, afterText: string): Changelog {
  return diffGraphqlDocuments(
    parse(beforeText, { noLocation: true }),
    parse(afterText, { noLocation: true }),
  )
}

/** {@link diffGraphql} over documents already parsed. */
export function diffGraphqlDocuments(before: DocumentNode, after: DocumentNode): Changelog {
  const [old, next] = [readSchema(before), readSchema(after)]
  const log = new ChangelogBuilder()
  const modified = new Set<string>()
  for (const [name, type] of old.types) {
    const now = next.types.get(name)
    if (now === undefined) {
      log.add('type-removed', name, `Type \`${name}\` was removed.`)
      log.count('types', 'deleted')
    } else if (diffType(log, name, type, now)) modified.add(name)
  }
  for (const name of next.types.keys()) {
    if (old.types.has(name)) continue
    log.add('type-added', name, `Type \`${name}\` was added.`)
    log.count('types', 'added')
  }
  // A root change counts as a change of the type that took the role, else of the one that lost it.
  for (const names of diffRoots(log, old.roots, next.roots)) {
    const name = names.find((name) => old.types.has(name) && next.types.has(name))
    if (name !== undefined) modified.add(name)
  }
  log.count('types', 'modified', modified.size)
  diffDescription(
    log,
    'schema-definition-description-changed',
    'The schema',
    'schema',
    old.description,
    next.description,
  )
  diffDirectives(log, old.directives, next.directives)
  return log.finish()
}
