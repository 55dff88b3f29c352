import { formatScopedName, parseScopedName, type ScopedName } from '@svc/project-format'

/** A hub project: `@acme/billing` → `{ account: 'acme', slug: 'billing' }`. */
export type Destination = ScopedName

export function parseDestination(value: string): Destination | undefined {
  return parseScopedName(value)
}

export function formatDestination(destination: Destination): string {
  return formatScopedName(destination)
}
