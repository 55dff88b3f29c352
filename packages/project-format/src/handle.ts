/** An account handle. Users and organisations share this one namespace. */
export const HANDLE_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,37}[a-z0-9])?$/

/** The handle rule in words, for messages. */
export const HANDLE_RULE = '1 to 39 lowercase letters, digits or inner hyphens'

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
  'downloads',
  'favicon.ico',
  'health',
  'healthz',
  'help',
  'hub',
  'install',
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
