import { RecipeError, type Recipe } from '../errors.js'
import type { Credentials, TokenSource } from './credentials.js'

/** Credentials whose token was found. */
export type Authenticated = Credentials & {
  readonly token: string
  readonly tokenFrom: TokenSource
}

/**
 * The credentials of a command that cannot run without a token; a recipe error (exit 2) that
 * names every place a token can come from when none did.
 */
export function requireToken(
  credentials: Credentials,
  recipe: Pick<Recipe, 'usage' | 'example'> & {
    readonly command: string
    readonly problem?: string
  },
): Authenticated {
  const { token, tokenFrom } = credentials
  if (token !== undefined && tokenFrom !== undefined) return { ...credentials, token, tokenFrom }
  throw new RecipeError({
    problem:
      recipe.problem ??
      `svc ${recipe.command} needs a token: --token, $SVC_HUB_TOKEN, or svc login.`,
    usage: recipe.usage,
    example: recipe.example,
    discover: 'svc login --help',
  })
}
