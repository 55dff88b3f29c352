import { formatLocation, OAS_ISSUES, type IssueLog } from '../issues/index.js'
import type { ComponentBucket } from '../model/operation.js'
import { parseLocalRef } from '../refs/pointer.js'
import { RefError } from '../refs/ref-error.js'
import { BUCKET_TYPE, MAX_REF_LOOKUPS, splitComponentRef } from '../refs/resolve-ref.js'
import type { Outcome, RefUse } from './context.js'

/** What became of every component unit, by bucket and name. */
export type ComponentOutcomes = Readonly<
  Record<ComponentBucket, ReadonlyMap<string, Outcome<unknown>>>
>

/** Everything a ref is checked against once all units are parsed. */
export type RefCheck = {
  readonly outcomes: ComponentOutcomes
  /** Why a ref to another file (as written) could not be followed. */
  readonly failures: ReadonlyMap<string, string>
  /** Verdicts already reached, by bucket and ref: the same refs recur thousands of times. */
  readonly verdicts: Map<string, string | undefined>
}

/**
 * Why a ref cannot be used, or undefined when it can. A target that failed to parse makes its
 * consumers unusable; a target that was itself only pruned does not (pruning is one hop).
 */
export function unusableRef(use: RefUse, { outcomes, failures }: RefCheck): string | undefined {
  const failure = failures.get(use.ref)
  if (failure !== undefined) return failure
  let ref = use.ref
  for (let lookups = 1; ; lookups++) {
    if (lookups > MAX_REF_LOOKUPS)
      return `${RefError.maxLookups(ref).message} following "${use.ref}"`
    const target = splitComponentRef(ref)
    if (!target) return notFound(ref)
    if (target.bucket !== use.bucket) {
      const actual = BUCKET_TYPE[target.bucket] ?? target.bucket
      return RefError.typeMismatch(ref, BUCKET_TYPE[use.bucket]!, actual).message
    }
    const outcome = outcomes[use.bucket].get(target.name)
    if (!outcome) return notFound(ref)
    if (!outcome.ok)
      return outcome.pruned ? undefined : `Ref "${ref}" is invalid: ${outcome.reason}`
    const value = outcome.value as { kind?: string; $ref?: string }
    if (value.kind !== 'ref' || typeof value.$ref !== 'string') return undefined
    ref = value.$ref
  }
}

function notFound(ref: string): string {
  const message = RefError.notFound(ref).message
  if (parseLocalRef(ref)) return message
  if (/^[a-z][a-z0-9+.-]*:/i.test(ref)) return `${message}: remote references are not fetched`
  return `${message}: references to other files are followed only when the input is a file`
}

/**
 * Checks a parsed unit's refs. Each distinct unusable ref is logged as INVALID_DEPENDENCY_REF at
 * the place it is written; returns whether the unit must be pruned.
 */
export function pruneIfUnusable(
  unitPath: readonly string[],
  refs: readonly RefUse[],
  check: RefCheck,
  issues: IssueLog,
): boolean {
  if (refs.length === 0) return false
  let prune = false
  let reported: Set<string> | undefined
  for (const use of refs) {
    const key = `${use.bucket}\u0000${use.ref}`
    let reason = check.verdicts.get(key)
    if (reason === undefined && !check.verdicts.has(key)) {
      reason = unusableRef(use, check)
      check.verdicts.set(key, reason)
    }
    if (reason === undefined || reported?.has(key)) continue
    ;(reported ??= new Set()).add(key)
    prune = true
    issues.add(
      OAS_ISSUES.invalidDependencyRef,
      use.path,
      `${reason}; dropped ${formatLocation(unitPath)}.`,
      reason,
    )
  }
  return prune
}
