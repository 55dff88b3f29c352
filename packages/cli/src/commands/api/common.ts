import { isHandle, parseScopedName } from '@svc/project-format'
import type { CommandIO } from '../../command-io.js'
import { CommandError, RecipeError, type Recipe } from '../../errors.js'
import { hubAdvice, type HubCommand } from '../../hub/advice.js'
import { resolveCredentials, type Credentials } from '../../hub/credentials.js'
import { hubRequest, type HubRequest } from '../../hub/hub-client.js'
import { requireToken } from '../../hub/require-token.js'

/** What every `svc api …` and `svc projects …` subcommand takes to reach the hub. */
export type HubOptions = {
  readonly origin?: string | undefined
  readonly token?: string | undefined
  readonly json?: boolean | undefined
  readonly input?: boolean | undefined
}

/** An API on the hub: `acme/payments` (or `@acme/payments`) → `{ owner: 'acme', slug: 'payments' }`. */
export type ApiName = { readonly owner: string; readonly slug: string }

export type SubcommandRecipe = Pick<Recipe, 'usage' | 'example'> & { readonly command: string }

export const DISCOVER_APIS = 'svc api list'

export function formatApiName(name: ApiName): string {
  return `${name.owner}/${name.slug}`
}

/** The `<owner/slug>` argument; missing or malformed is a recipe error (exit 2). */
export function parseApiName(value: string | undefined, recipe: SubcommandRecipe): ApiName {
  const problem =
    value === undefined || value === ''
      ? `svc ${recipe.command} needs the API: owner/slug, such as acme/payments.`
      : undefined
  const parsed = value ? parseScopedName(value, { scoped: false }) : undefined
  if (parsed) return { owner: parsed.account, slug: parsed.slug }
  throw new RecipeError({
    problem:
      problem ??
      `'${value}' is not an API name: owner/slug (or @owner/slug), with the owner a handle and the slug lowercase letters, digits, . _ -.`,
    usage: recipe.usage,
    example: recipe.example,
    discover: DISCOVER_APIS,
  })
}

/** A required argument other than the API (a file, a URL, an id): a recipe error when missing. */
export function requireArgument(
  value: string | undefined,
  what: string,
  recipe: SubcommandRecipe,
  discover: string,
): string {
  if (value !== undefined && value !== '') return value
  throw new RecipeError({
    problem: `svc ${recipe.command} needs ${what}.`,
    usage: recipe.usage,
    example: recipe.example,
    discover,
  })
}

/** The token and hub of a subcommand; `tokenRequired` makes a missing token a recipe error. */
export function hubCredentials(
  options: HubOptions,
  io: CommandIO,
  recipe: SubcommandRecipe,
  tokenRequired: boolean,
): Credentials & { readonly token: string | undefined } {
  const credentials = resolveCredentials(options, io.env)
  return tokenRequired ? requireToken(credentials, recipe) : credentials
}

/**
 * One hub request of a subcommand, parsed with its `@svc/hub-api` schema; a failure becomes a
 * CommandError (exit 1) whose message is the advice for `command` and `target`.
 */
export async function hubCall<T>(
  credentials: Credentials,
  command: HubCommand,
  target: string,
  request: HubRequest<T>,
): Promise<{ readonly status: number; readonly body: T }> {
  try {
    return await hubRequest(credentials.origin, credentials.token, request)
  } catch (error) {
    throw new CommandError(
      hubAdvice(command, error, { origin: credentials.origin, target, token: credentials.token }),
    )
  }
}

/** A listing's `--owner`, refused before any request when it cannot be an account handle. */
export function checkOwner(owner: string | undefined, recipe: SubcommandRecipe): void {
  if (owner !== undefined && !isHandle(owner))
    throw new RecipeError({
      ...recipe,
      problem: `--owner '${owner}' is not an account handle.`,
      discover: 'svc whoami (your account and organisations)',
    })
}

/**
 * Every page of a hub listing that pages with `nextCursor` (100 a page, the hub's most), each
 * read as `hubCall` reads one answer.
 */
export async function allPages<P extends { readonly nextCursor: string | null }, T>(
  credentials: Credentials,
  command: HubCommand,
  target: string,
  listing: {
    readonly path: string
    readonly query?: Readonly<Record<string, string | undefined>>
    readonly answer: HubRequest<P>['answer']
  },
  items: (page: P) => readonly T[],
): Promise<T[]> {
  const found: T[] = []
  let cursor: string | undefined
  do {
    const params = new URLSearchParams({ limit: '100' })
    for (const [key, value] of Object.entries(listing.query ?? {}))
      if (value) params.set(key, value)
    if (cursor) params.set('cursor', cursor)
    const { body } = await hubCall(credentials, command, target, {
      method: 'GET',
      path: `${listing.path}?${params}`,
      answer: listing.answer,
    })
    found.push(...items(body))
    cursor = body.nextCursor ?? undefined
  } while (cursor)
  return found
}

/** `/v1/apis/<owner>/<slug><rest>` */
export function apiPath(name: ApiName, rest = ''): string {
  return `/v1/apis/${encodeURIComponent(name.owner)}/${encodeURIComponent(name.slug)}${rest}`
}
