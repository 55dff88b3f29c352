// The functions one by one: the whole of semver costs every diff its load time.
import lt from 'semver/functions/lt.js'
import major from 'semver/functions/major.js'
import minor from 'semver/functions/minor.js'
import valid from 'semver/functions/valid.js'
import type { ApiInfo, Parameter } from '../../model/index.js'
import type { ChangelogBuilder } from '../changelog.js'
import type { DiffPolicy, PolicyOptions } from '../policies.js'
import type { FixedOasRuleId } from './rules.js'
import type { Operation } from './operation-diff.js'
import type { Scope } from './scope.js'

/** The policies turned on, and the day sunset dates are compared with. */
export class Policies {
  readonly #on: ReadonlySet<DiffPolicy>
  readonly today: string

  constructor(options: PolicyOptions = {}) {
    this.#on = options.policies ?? new Set()
    this.today = (options.now ?? new Date()).toISOString().slice(0, 10)
  }

  has(policy: DiffPolicy): boolean {
    return this.#on.has(policy)
  }
}

// Sunset ----------------------------------------------------------------------------------------

type Sunset =
  | { readonly kind: 'none' }
  | { readonly kind: 'invalid'; readonly raw: string }
  | { readonly kind: 'date'; readonly day: string }

type Extensions = Readonly<Record<string, unknown>> | undefined

/** `x-sunset`: a date (`2025-12-31`), or a date-time whose day is kept. */
function sunsetOf(extensions: Extensions): Sunset {
  const raw = extensions?.['x-sunset']
  if (raw === undefined || raw === null) return { kind: 'none' }
  if (raw instanceof Date && !Number.isNaN(raw.getTime()))
    return { kind: 'date', day: raw.toISOString().slice(0, 10) }
  const text = typeof raw === 'string' ? raw.trim() : JSON.stringify(raw)
  const day = /^(\d{4}-\d{2}-\d{2})(?:[Tt ].*)?$/.exec(text)?.[1]
  const date = new Date(`${day}T00:00:00Z`)
  // `2026-02-30` is no day: Date either refuses it or moves it to March.
  if (day && !Number.isNaN(date.getTime()) && date.toISOString().startsWith(day))
    return { kind: 'date', day }
  return { kind: 'invalid', raw: text }
}

function describeSunset(sunset: Sunset): string {
  return sunset.kind === 'date' ? sunset.day : sunset.kind === 'invalid' ? sunset.raw : 'none'
}

/** The rules of one kind of thing (operation, parameter) that carries `x-sunset`. */
type SunsetRules = {
  readonly removed: FixedOasRuleId
  readonly movedEarlier: FixedOasRuleId
  readonly invalid: FixedOasRuleId
  readonly missing: FixedOasRuleId
  readonly inPast: FixedOasRuleId
}

type Sunsetted = { readonly deprecated: boolean; readonly extensions?: Extensions }

/**
 * What the document promises stays promised: a deprecated operation or parameter keeps its sunset
 * date or gets a later one, and a new deprecation gives notice. The sunset policy also asks every
 * deprecation for a readable date, and for one at all unless `exempt` (a draft or alpha
 * operation).
 */
function compareSunset(
  policies: Policies,
  scope: Scope,
  [old, next]: readonly [Sunsetted, Sunsetted],
  { pointer, subject, exempt }: { pointer: string; subject: string; exempt: boolean },
  rules: SunsetRules,
): void {
  if (!next.deprecated) return
  const [before, after] = [sunsetOf(old.extensions), sunsetOf(next.extensions)]
  const place = `${pointer}/x-sunset`
  const Subject = subject.charAt(0).toUpperCase() + subject.slice(1)
  if (old.deprecated && before.kind !== 'none' && after.kind === 'none')
    return scope.fixed(
      rules.removed,
      place,
      `${Subject} lost its \`x-sunset\` date ${describeSunset(before)}; it is still deprecated.`,
    )
  if (old.deprecated && before.kind === 'date' && after.kind === 'date' && after.day < before.day)
    return scope.fixed(
      rules.movedEarlier,
      place,
      `The \`x-sunset\` date of ${subject} moved earlier, from ${before.day} to ${after.day}.`,
    )
  // A deprecation whose sunset has already passed gives clients no notice at all.
  if (!old.deprecated && after.kind === 'date' && after.day < policies.today)
    return scope.fixed(
      rules.inPast,
      place,
      `${Subject} was deprecated with the \`x-sunset\` date ${after.day}, already past.`,
    )
  if (!policies.has('sunset')) return
  if (after.kind === 'invalid' && describeSunset(before) !== after.raw)
    return scope.fixed(
      rules.invalid,
      place,
      `The \`x-sunset\` value \`${after.raw}\` of ${subject} is not a date (YYYY-MM-DD).`,
    )
  if (!old.deprecated && after.kind === 'none' && !exempt)
    scope.fixed(rules.missing, pointer, `${Subject} was deprecated without an \`x-sunset\` date.`)
}

const OPERATION_SUNSET: SunsetRules = {
  removed: 'endpoint-sunset-removed',
  movedEarlier: 'endpoint-sunset-moved-earlier',
  invalid: 'endpoint-sunset-invalid',
  missing: 'endpoint-deprecated-without-sunset',
  inPast: 'endpoint-sunset-in-past',
}

const PARAMETER_SUNSET: SunsetRules = {
  removed: 'request-parameter-sunset-removed',
  movedEarlier: 'request-parameter-sunset-moved-earlier',
  invalid: 'request-parameter-sunset-invalid',
  missing: 'request-parameter-deprecated-without-sunset',
  inPast: 'request-parameter-sunset-in-past',
}

/** The `x-sunset` rules of a parameter found on both sides. */
export function compareParameterSunset(
  policies: Policies,
  scope: Scope,
  old: Parameter,
  next: Parameter,
  pointer: string,
  label: string,
): void {
  compareSunset(
    policies,
    scope,
    [old, next],
    { pointer, subject: `the ${label}`, exempt: false },
    PARAMETER_SUNSET,
  )
}

/** The rule for a parameter that was removed: a deprecated one may go once its sunset has come. */
export function parameterRemovalRule(policies: Policies, parameter: Parameter): FixedOasRuleId {
  if (!parameter.deprecated) return 'request-parameter-removed'
  const sunset = sunsetOf(parameter.extensions)
  return sunset.kind === 'date' && policies.today < sunset.day
    ? 'request-parameter-removed-before-sunset'
    : 'deprecated-request-parameter-removed'
}

// Stability -------------------------------------------------------------------------------------

/** oasdiff's levels, least stable first; an operation without `x-stability-level` is stable. */
const STABILITY = ['draft', 'alpha', 'beta', 'stable'] as const

function stabilityOf(operation: Operation): { raw: string; rank: number } {
  const raw = operation.extensions?.['x-stability-level']
  if (raw === undefined) return { raw: 'stable', rank: STABILITY.length - 1 }
  const text = typeof raw === 'string' ? raw : JSON.stringify(raw)
  return { raw: text, rank: (STABILITY as readonly string[]).indexOf(text) }
}

/** Draft or alpha: oasdiff lets such an operation change or go without notice. */
function isUnstable(operation: Operation): boolean {
  const { rank } = stabilityOf(operation)
  return rank >= 0 && rank <= STABILITY.indexOf('alpha')
}

/** A declared stability that goes down withdraws a promise; the policy also wants valid levels. */
function compareStability(
  policies: Policies,
  scope: Scope,
  old: Operation,
  next: Operation,
  pointer: string,
): void {
  const [before, after] = [stabilityOf(old), stabilityOf(next)]
  if (before.raw === after.raw) return
  const place = `${pointer}/x-stability-level`
  if (after.rank < 0) {
    if (policies.has('stability'))
      scope.fixed(
        'endpoint-stability-invalid',
        place,
        `The \`x-stability-level\` \`${after.raw}\` is not one of draft, alpha, beta, stable.`,
      )
    return
  }
  if (before.rank < 0) return
  const decreased = after.rank < before.rank
  scope.fixed(
    decreased ? 'endpoint-stability-decreased' : 'endpoint-stability-increased',
    place,
    `The stability level ${decreased ? 'decreased' : 'increased'} from ${before.raw} to ${after.raw}.`,
  )
}

/** The lifecycle rules (`x-sunset`, `x-stability-level`) of an operation found on both sides. */
export function compareLifecycle(
  policies: Policies,
  scope: Scope,
  old: Operation,
  next: Operation,
  pointer: string,
): void {
  if (next.kind !== 'http') return
  compareSunset(
    policies,
    scope,
    [old, next],
    { pointer, subject: 'the operation', exempt: isUnstable(next) },
    OPERATION_SUNSET,
  )
  compareStability(policies, scope, old, next, pointer)
}

/** The rule for an operation or webhook that was removed, and what to add to its message. */
export function removalRule(
  policies: Policies,
  operation: Operation,
): { id: FixedOasRuleId; note: string } {
  if (operation.kind === 'webhook')
    return { id: operation.deprecated ? 'deprecated-webhook-removed' : 'webhook-removed', note: '' }
  if (isUnstable(operation))
    return {
      id: 'unstable-endpoint-removed',
      note: ` (its stability level was ${stabilityOf(operation).raw})`,
    }
  if (!operation.deprecated) return { id: 'endpoint-removed', note: '' }
  const sunset = sunsetOf(operation.extensions)
  if (sunset.kind === 'date' && policies.today < sunset.day)
    return { id: 'endpoint-removed-before-sunset', note: ` before its sunset date ${sunset.day}` }
  return { id: 'deprecated-endpoint-removed', note: '' }
}

// Version ---------------------------------------------------------------------------------------

/**
 * `info.version` judged against the changes found, as oasdiff does: breaking changes call for a
 * new major version (a new minor one below 1.0.0). A version that is not semver (a date) is only
 * asked to change.
 */
export function checkVersion(
  policies: Policies,
  log: ChangelogBuilder,
  old: ApiInfo,
  next: ApiInfo,
  breaking: boolean,
): void {
  if (!policies.has('version') || !breaking) return
  const place = '/info/version'
  const [a, b] = [valid(old.version, true), valid(next.version, true)]
  if (old.version === next.version)
    return log.add(
      'api-version-not-bumped',
      place,
      `The document has breaking changes and its version is still ${next.version}.`,
    )
  if (!a || !b) return
  if (lt(b, a, true))
    return log.add(
      'api-version-decreased',
      place,
      `The document has breaking changes and its version went down, from ${old.version} to ${next.version}.`,
    )
  const line = (version: string) =>
    major(version) > 0 ? `${major(version)}` : `0.${minor(version)}`
  if (line(a) === line(b))
    log.add(
      'api-major-version-not-bumped',
      place,
      `The document has breaking changes and its version went from ${old.version} to ${next.version}, not to a new major version.`,
    )
}
