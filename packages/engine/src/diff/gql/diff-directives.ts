import type { ChangeDelta, ChangelogBuilder } from '../changelog.js'
import { countDelta, diffInputValues, type InputValueRules } from './diff-input-values.js'
import { diffDescription } from './diff-descriptions.js'
import { diffNames } from './diff-names.js'
import type { DirectiveShape } from './schema-shape.js'

const DIRECTIVE_ARGUMENT_RULES: InputValueRules = {
  what: 'Directive argument',
  requiredAdded: 'directive-required-argument-added',
  optionalAdded: 'directive-optional-argument-added',
  removed: 'directive-argument-removed',
  typeChanged: 'directive-argument-type-changed',
  typeWidened: 'directive-argument-type-widened',
  defaultChanged: 'directive-argument-default-changed',
  description: 'directive-argument-description-changed',
}

/** Reports the directive definitions added, removed and changed, and counts them. */
export function diffDirectives(
  log: ChangelogBuilder,
  before: ReadonlyMap<string, DirectiveShape>,
  after: ReadonlyMap<string, DirectiveShape>,
): void {
  const delta: ChangeDelta = { added: 0, deleted: 0, modified: 0 }
  for (const [name, old] of before) {
    const next = after.get(name)
    if (next === undefined) {
      log.add('directive-removed', `@${name}`, `Directive '@${name}' was removed.`)
      delta.deleted++
    } else if (diffDirective(log, `@${name}`, old, next)) delta.modified++
  }
  for (const name of after.keys()) {
    if (before.has(name)) continue
    log.add('directive-added', `@${name}`, `Directive '@${name}' was added.`)
    delta.added++
  }
  countDelta(log, 'directives', delta)
}

function diffDirective(
  log: ChangelogBuilder,
  at: string,
  before: DirectiveShape,
  after: DirectiveShape,
): boolean {
  diffDescription(
    log,
    'directive-description-changed',
    `Directive \`${at}\``,
    at,
    before.description,
    after.description,
  )
  let changed = diffNames(
    log,
    ['directive-location-added', 'directive-location-removed'],
    at,
    before.locations,
    after.locations,
    (names) => `Directive \`${at}\` can now be used on ${names}.`,
    (names) => `Directive \`${at}\` can no longer be used on ${names}.`,
  )
  if (before.repeatable !== after.repeatable) {
    if (after.repeatable)
      log.add('directive-repeatable-added', at, `Directive \`${at}\` became repeatable.`)
    else log.add('directive-repeatable-removed', at, `Directive \`${at}\` is no longer repeatable.`)
    changed = true
  }
  const args = diffInputValues(
    log,
    DIRECTIVE_ARGUMENT_RULES,
    before.args,
    after.args,
    (name) => `${at}(${name}:)`,
  )
  // A directive's arguments are part of the directive: only the directive is counted.
  return args.added + args.deleted + args.modified > 0 || changed
}
