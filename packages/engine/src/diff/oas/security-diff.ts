import type { OasModel, SecurityRequirement } from '../../model/index.js'
import type { Operation } from './operation-diff.js'
import type { Scope } from './scope.js'

export function effectiveSecurity(
  model: OasModel,
  operation: Operation,
): readonly SecurityRequirement[] {
  return operation.security ?? model.security ?? []
}

function requirementKey(requirement: SecurityRequirement): string {
  return Object.keys(requirement).sort().join(' + ')
}

/**
 * Security is a list of alternatives, each a set of schemes with scopes. Alternatives match by
 * their set of scheme names; an empty list or an empty alternative lets anonymous calls through.
 */
export function compareSecurity(
  scope: Scope,
  old: readonly SecurityRequirement[],
  next: readonly SecurityRequirement[],
  pointer: string,
): void {
  const place = `${pointer}/security`
  const anonymous = (list: readonly SecurityRequirement[]) =>
    list.length === 0 || list.some((requirement) => Object.keys(requirement).length === 0)
  const [wasOpen, isOpen] = [anonymous(old), anonymous(next)]
  if (wasOpen && !isOpen)
    return scope.fixed(
      'endpoint-security-added',
      place,
      `The operation now requires authentication (${describe(next)}).`,
    )
  if (!wasOpen && isOpen)
    scope.fixed('endpoint-security-removed', place, 'The operation now allows anonymous calls.')
  const named = (list: readonly SecurityRequirement[]) =>
    new Map(list.filter((r) => Object.keys(r).length > 0).map((r) => [requirementKey(r), r]))
  const before = named(old)
  const after = named(next)
  if (wasOpen || isOpen) return
  for (const [key, requirement] of after) {
    const match = before.get(key)
    if (!match) {
      scope.fixed(
        'endpoint-security-alternative-added',
        place,
        `The security requirement \`${key}\` was added.`,
      )
      continue
    }
    for (const scheme of Object.keys(requirement)) {
      const had = new Set(match[scheme])
      const has = new Set(requirement[scheme])
      for (const scopeName of has)
        if (!had.has(scopeName))
          scope.fixed(
            'endpoint-security-scope-added',
            place,
            `The security requirement \`${key}\` now needs the scope \`${scopeName}\` of \`${scheme}\`.`,
          )
      for (const scopeName of had)
        if (!has.has(scopeName))
          scope.fixed(
            'endpoint-security-scope-removed',
            place,
            `The security requirement \`${key}\` no longer needs the scope \`${scopeName}\` of \`${scheme}\`.`,
          )
    }
  }
  for (const key of before.keys())
    if (!after.has(key))
      scope.fixed(
        'endpoint-security-alternative-removed',
        place,
        `The security requirement \`${key}\` was removed.`,
      )
}

function describe(list: readonly SecurityRequirement[]): string {
  return list.map(requirementKey).join(' or ')
}
