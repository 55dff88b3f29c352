/**
 * The slug of a stack, an API or a project, and the name of a local project. The hub has stored
 * names under this rule since its first release, so it can only ever widen.
 */
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9._-]{0,62}[a-z0-9])?$/

/** The slug rule in words, for messages. */
export const SLUG_RULE =
  '1 to 64 lowercase letters, digits, dots, hyphens or underscores, starting and ending with a letter or digit'

export function isSlug(value: string): boolean {
  return SLUG_PATTERN.test(value)
}
