import type { OasModel, SecurityRequirement } from '../../model/index.js'
import type { Operation } from './operation-diff.js'
import type { FixedOasRuleId } from './rules.js'
import { Scope } from './scope.js'

export function effectiveSecurity(
  model: OasModel,
  operation: Operation,
): readonly SecurityRequirement[] {
  return operation.security ?? model.security ?? []
}

/**
 * An operation without `security` of its own on either side takes the document's both times: a
 * change there is the document's, compared once (see {@link compareDocumentSecurity}).
 */
export function inheritsSecurity(old: Operation, next: Operation): boolean {
  return old.security === undefined && next.security === undefined
}

function requirementKey(requirement: SecurityRequirement): string {
  return Object.keys(requirement).sort().join(' + ')
}

/** Whose requirements are compared: an operation's (`endpoint-security-*`) or the document's (`api-security-*`). */
type Owner = 'endpoint' | 'api'

const NOW: Readonly<Record<Owner, { secured: string; open: string }>> = {
  endpoint: {
    secured: 'The operation now requires authentication',
    open: 'The operation now allows anonymous calls.',
  },
  api: {
    secured: 'Operations without their own `security` now require authentication',
    open: 'Operations without their own `security` now allow anonymous calls.',
  },
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
  owner: Owner = 'endpoint',
): void {
  const place = `${pointer}/security`
  const fact = (kind: string, text: string) =>
    scope.fixed(`${owner}-security-${kind}` as FixedOasRuleId, place, text)
  const anonymous = (list: readonly SecurityRequirement[]) =>
    list.length === 0 || list.some((requirement) => Object.keys(requirement).length === 0)
  const [wasOpen, isOpen] = [anonymous(old), anonymous(next)]
  if (wasOpen && !isOpen) return fact('added', `${NOW[owner].secured} (${describe(next)}).`)
  if (!wasOpen && isOpen) fact('removed', NOW[owner].open)
  const named = (list: readonly SecurityRequirement[]) =>
    new Map(list.filter((r) => Object.keys(r).length > 0).map((r) => [requirementKey(r), r]))
  const before = named(old)
  const after = named(next)
  if (wasOpen || isOpen) return
  // An alternative replaced by one that asks for part of what it asked (fewer schemes or scopes)
  // is relaxed: the credentials clients sent still satisfy it.
  const relaxed = new Set<string>()
  for (const [key, requirement] of after) {
    if (before.has(key)) continue
    const wider = [...before].find(
      ([oldKey, oldRequirement]) =>
        !after.has(oldKey) && !relaxed.has(oldKey) && demandsPartOf(requirement, oldRequirement),
    )
    if (!wider) continue
    relaxed.add(wider[0])
    relaxed.add(key)
    fact(
      'alternative-relaxed',
      `The security requirement \`${wider[0]}\` became \`${key}\`, which asks for part of it.`,
    )
  }
  for (const [key, requirement] of after) {
    const match = before.get(key)
    if (!match) {
      if (!relaxed.has(key))
        fact('alternative-added', `The security requirement \`${key}\` was added.`)
      continue
    }
    for (const scheme of Object.keys(requirement)) {
      const had = new Set(match[scheme])
      const has = new Set(requirement[scheme])
      for (const scopeName of has)
        if (!had.has(scopeName))
          fact(
            'scope-added',
            `The security requirement \`${key}\` now needs the scope \`${scopeName}\` of \`${scheme}\`.`,
          )
      for (const scopeName of had)
        if (!has.has(scopeName))
          fact(
            'scope-removed',
            `The security requirement \`${key}\` no longer needs the scope \`${scopeName}\` of \`${scheme}\`.`,
          )
    }
  }
  for (const key of before.keys())
    if (!after.has(key) && !relaxed.has(key))
      fact('alternative-removed', `The security requirement \`${key}\` was removed.`)
}

/** Whether every scheme and scope `requirement` asks for, `wider` asked for too. */
function demandsPartOf(requirement: SecurityRequirement, wider: SecurityRequirement): boolean {
  return Object.entries(requirement).every(([scheme, scopes]) => {
    const had = wider[scheme]
    return had !== undefined && scopes.every((name) => had.includes(name))
  })
}

/** The document-level `security` compared once, for the operations that inherit it. */
export function compareDocumentSecurity(old: OasModel, next: OasModel): Scope {
  const scope = new Scope('document')
  compareSecurity(scope, old.security ?? [], next.security ?? [], '', 'api')
  return scope
}

function describe(list: readonly SecurityRequirement[]): string {
  return list.map(requirementKey).join(' or ')
}
