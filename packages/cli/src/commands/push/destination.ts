import { SCOPED_NAME } from '../../project/root-manifest.js'

/** A hub project: `@acme/billing` → `{ account: 'acme', slug: 'billing' }`. */
export type Destination = { readonly account: string; readonly slug: string }

export function parseDestination(value: string): Destination | undefined {
  if (!SCOPED_NAME.test(value)) return undefined
  const [account, slug] = value.slice(1).split('/') as [string, string]
  return { account, slug }
}

export function formatDestination(destination: Destination): string {
  return `@${destination.account}/${destination.slug}`
}
