import { HANDLE_PATTERN, HANDLE_RULE, isHandle } from './handle.js'
import { isSlug, SLUG_PATTERN, SLUG_RULE } from './slug.js'

/** `@acme/billing` → `{ account: 'acme', slug: 'billing' }`: a stack, an API or a hub project. */
export type ScopedName = { readonly account: string; readonly slug: string }

const inner = (pattern: RegExp) => pattern.source.replace(/^\^/, '').replace(/\$$/, '')

/** `@account/slug`, with the account a handle and the slug a slug. */
export const SCOPED_NAME = new RegExp(`^@${inner(HANDLE_PATTERN)}/${inner(SLUG_PATTERN)}$`)

/**
 * Splits `@account/slug`; with `scoped: false` the leading `@` is optional (`acme/billing`, how
 * the hub writes an API's name).
 *
 * @example
 * parseScopedName('@acme/billing.v2') // { account: 'acme', slug: 'billing.v2' }
 */
export function parseScopedName(
  value: string,
  { scoped }: { scoped: boolean } = { scoped: true },
): ScopedName | undefined {
  const match = (scoped ? /^@([^/]+)\/([^/]+)$/ : /^@?([^/]+)\/([^/]+)$/).exec(value)
  if (!match?.[1] || !match[2] || !isHandle(match[1]) || !isSlug(match[2])) return undefined
  return { account: match[1], slug: match[2] }
}

export function isScopedName(value: string): boolean {
  return parseScopedName(value) !== undefined
}

export function formatScopedName(name: ScopedName): string {
  return `@${name.account}/${name.slug}`
}

/**
 * Why `value` is not `@account/slug`, or undefined when it is: the shape, or the part that breaks
 * its rule (`'Acme' is not a handle: …`).
 */
export function scopedNameProblem(value: string): string | undefined {
  const match = /^@([^/]*)\/([^/]*)$/.exec(value)
  if (!match) return `'${value}' is not scoped as '@account/slug'`
  const [, account = '', slug = ''] = match
  if (!isHandle(account))
    return `'${value}' is not scoped as '@account/slug': '${account}' is not a handle (${HANDLE_RULE})`
  if (!isSlug(slug))
    return `'${value}' is not scoped as '@account/slug': '${slug}' is not a slug (${SLUG_RULE})`
  return undefined
}
