/** Users and organisations share this one namespace. */
export const HANDLE_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,37}[a-z0-9])?$/

/** Slugs of stacks, APIs and projects. */
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9._-]{0,62}[a-z0-9])?$/

export function isHandle(value: string): boolean {
  return HANDLE_PATTERN.test(value)
}

/** Splits `@account/slug` (the leading `@` optional when `scoped` is false). */
export function parseScopedName(
  value: string,
  { scoped }: { scoped: boolean },
): { account: string; slug: string } | undefined {
  const match = (scoped ? /^@([^/]+)\/([^/]+)$/ : /^@?([^/]+)\/([^/]+)$/).exec(value)
  if (!match?.[1] || !match[2]) return undefined
  if (!HANDLE_PATTERN.test(match[1]) || !SLUG_PATTERN.test(match[2])) return undefined
  return { account: match[1], slug: match[2] }
}
