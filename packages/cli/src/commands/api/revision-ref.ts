import { RecipeError } from '../../errors.js'
import { formatApiName, type ApiName, type SubcommandRecipe } from './common.js'

/**
 * A revision as the hub's paths take it, from what the user typed: a sequence number (`5` or
 * `#5`), a revision id (`rev_…`), or, where `latest` is allowed, `latest`. Anything else is a
 * recipe error (exit 2) that says how to list the revisions.
 */
export function parseRevisionRef(
  value: string,
  options: { readonly latest: boolean; readonly what: string },
  recipe: SubcommandRecipe,
  name: ApiName,
): string {
  const ref = value.trim().replace(/^#/, '')
  if (/^[1-9][0-9]{0,8}$/.test(ref) || /^rev_[a-z0-9]{1,64}$/.test(ref)) return ref
  if (options.latest && ref === 'latest') return ref
  throw new RecipeError({
    ...recipe,
    problem: `'${value}' is not ${options.what}: give its sequence number (4 or #4) or its id (rev_…)${options.latest ? ', or latest' : ''}.`,
    discover: `svc api revisions ${formatApiName(name)}`,
  })
}
