/**
 * Conventions a team can opt into on top of what a change does to clients. Each turns on rules of
 * the catalogue that stay silent otherwise (docs/diff-rules.md, "Policies").
 */
export const DIFF_POLICIES = ['sunset', 'stability', 'version'] as const

export type DiffPolicy = (typeof DIFF_POLICIES)[number]

/** What the OpenAPI diff needs to apply policies. */
export type PolicyOptions = {
  readonly policies?: ReadonlySet<DiffPolicy>
  /** The day sunset dates are compared with; today (UTC) unless given. */
  readonly now?: Date
}
