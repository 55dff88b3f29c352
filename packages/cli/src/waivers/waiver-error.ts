import { RecipeError, type Recipe } from '../errors.js'

/** The name svc looks for in the working folder and above it, up to the git root. */
export const WAIVER_FILE = 'svc-waivers.yaml'

export const USAGE = `${WAIVER_FILE}: waivers: a list of { rule, operation and/or location, reason, expires? }`
export const EXAMPLE =
  'waivers: [{ rule: endpoint-removed, operation: DELETE /pets/{petId}, reason: "announced in 1.2", expires: 2027-01-31 }]'

/** An error about the waiver file, with its usage and an example. */
export function waiverError(
  problem: string,
  discover = `docs/commands/diff.md#the-waiver-file`,
): RecipeError {
  const recipe: Recipe = { problem, usage: USAGE, example: EXAMPLE, discover }
  return new RecipeError(recipe)
}
