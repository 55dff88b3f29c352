import type { ChangelogBuilder } from '../changelog.js'
import type { GraphqlRootKind } from '../../model/operation.js'

type Roots = Readonly<Partial<Record<GraphqlRootKind, string>>>

const ROOT_KINDS: readonly GraphqlRootKind[] = ['query', 'mutation', 'subscription']

/**
 * Reports the root operation types that appeared, changed or went away, at `schema.query` and
 * the like. Returns, per change, the type that took the role and the one that lost it (where
 * there is one), for the type counts.
 */
export function diffRoots(log: ChangelogBuilder, before: Roots, after: Roots): string[][] {
  const touched: string[][] = []
  for (const kind of ROOT_KINDS) {
    const [from, to] = [before[kind], after[kind]]
    if (from === to) continue
    const at = `schema.${kind}`
    if (from === undefined)
      log.add('root-type-added', at, `The schema's ${kind} root type is now \`${to}\`.`)
    else if (to === undefined)
      log.add(
        'root-type-changed',
        at,
        `The schema no longer has a ${kind} root type (\`${from}\`).`,
      )
    else
      log.add(
        'root-type-changed',
        at,
        `The schema's ${kind} root type changed from \`${from}\` to \`${to}\`.`,
      )
    touched.push([to, from].filter((name) => name !== undefined))
  }
  return touched
}
