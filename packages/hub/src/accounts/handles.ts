/** Users and organisations share this one namespace. */
export const HANDLE_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,37}[a-z0-9])?$/

/** Slugs of stacks, APIs and projects. */
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9._-]{0,62}[a-z0-9])?$/

/**
 * Handles that would hide a page of the web app (`/{handle}` is an account's page) or pass for
 * the hub itself. Existing accounts keep them; new ones cannot take them.
 */
export const RESERVED_HANDLES: ReadonlySet<string> = new Set([
  'about',
  'account',
  'api',
  'apis',
  'assets',
  'docs',
  'favicon.ico',
  'health',
  'healthz',
  'help',
  'hub',
  'login',
  'logout',
  'metrics',
  'new',
  'org',
  'orgs',
  'organizations',
  'projects',
  'robots.txt',
  'settings',
  'signin',
  'signout',
  'signup',
  'stacks',
  'static',
  'svc',
  'user',
  'users',
  'v1',
  'v2',
  'www',
])

export function isHandle(value: string): boolean {
  return HANDLE_PATTERN.test(value)
}

/** Why `value` cannot name a new account, or undefined when it can. */
export function handleProblem(value: string): string | undefined {
  if (!isHandle(value)) return 'Use 1–39 lowercase letters, digits or inner hyphens.'
  if (RESERVED_HANDLES.has(value)) return `'${value}' is reserved by the hub.`
  return undefined
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
