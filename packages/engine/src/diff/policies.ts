/**
 * Conventions a team can opt into on top of what a change does to clients. Each turns on rules of
 * the catalogue that stay silent otherwise (docs/diff-rules.md, "Policies").
 */
export const DIFF_POLICIES = ['sunset', 'stability', 'version'] as const

export type DiffPolicy = (typeof DIFF_POLICIES)[number]

/**
 * Whose breakage a diff judges: `wire` what requests and responses carry (the default); `sdk` also
 * the code svc's generators emit from the description (names, signatures, result unions).
 */
export const DIFF_PROFILES = ['wire', 'sdk'] as const

export type DiffProfile = (typeof DIFF_PROFILES)[number]

/** What the OpenAPI diff needs to apply policies and a profile. */
export type PolicyOptions = {
  readonly profile?: DiffProfile
  /**
   * Under the `sdk` profile, the generators the project uses (`@svc/gen-fetch-client`, …; any
   * other id stands for a generator outside svc): rules that break none of their code stay
   * silent. Unset: every SDK rule applies.
   */
  readonly sdkGenerators?: readonly string[]
  readonly policies?: ReadonlySet<DiffPolicy>
  /** The day sunset dates are compared with; today (UTC) unless given. */
  readonly now?: Date
}
