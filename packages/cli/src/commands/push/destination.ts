import { RecipeError, type Recipe } from '../../errors.js'
import { formatScopedName, parseScopedName, type ScopedName } from '@svc/project-format'

/** A hub project: `@acme/billing` → `{ account: 'acme', slug: 'billing' }`. */
export type Destination = ScopedName

export function parseDestination(value: string): Destination | undefined {
  return parseScopedName(value)
}

export function formatDestination(destination: Destination): string {
  return formatScopedName(destination)
}

/**
 * `--project` of push and pull: `@account/slug`; `alice/demo`, as the web app shows a project,
 * is a recipe error that says `did you mean @alice/demo?`.
 */
export function destinationFlag(
  value: string,
  recipe: Pick<Recipe, 'usage' | 'example'>,
): Destination {
  const destination = parseDestination(value)
  if (destination !== undefined) return destination
  return refuseDestination(value, '--project', recipe)
}

/** The recipe error for a hub project name that is not `@account/slug`, with a did-you-mean. */
export function refuseDestination(
  value: string,
  from: string,
  recipe: Pick<Recipe, 'usage' | 'example'>,
): never {
  const guess = value.startsWith('@') ? undefined : parseDestination(`@${value}`)
  throw new RecipeError({
    ...recipe,
    problem: `${from} '${value}' is not a hub project: it must be @account/slug${guess ? ` (did you mean ${formatDestination(guess)}?)` : ''}.`,
    discover: 'svc projects list',
  })
}
