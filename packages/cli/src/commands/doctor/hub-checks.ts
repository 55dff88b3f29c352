import { RecipeError } from '../../errors.js'
import { hubAdvice } from '../../hub/advice.js'
import { resolveCredentials, type Credentials } from '../../hub/credentials.js'
import { currentUser } from '../../hub/user.js'
import type { Check } from './checks.js'

/** How long doctor waits for the hub: it is a quick look, not a publish. */
const HEALTH_TIMEOUT_MS = 5_000

/**
 * The hub and the login: does the hub answer `/healthz`, is there a token, and does the hub take
 * it (`GET /v1/user`). Neither is needed to generate locally, so what is missing or refused is a
 * warning with its fix, never an error.
 */
export async function hubChecks(
  flags: { readonly token?: string | undefined; readonly origin?: string | undefined },
  env: NodeJS.ProcessEnv,
): Promise<Check[]> {
  let credentials: Credentials
  try {
    credentials = resolveCredentials(flags, env)
  } catch (error) {
    if (!(error instanceof RecipeError)) throw error
    return [{ id: 'hub', status: 'error', message: error.recipe.problem, hint: error.recipe.usage }]
  }
  const { origin, originFrom, token, tokenFrom } = credentials
  const from = {
    flag: '--origin',
    env: '$SVC_API_ORIGIN',
    login: 'the login',
    default: 'the default',
  }
  const setOrigin =
    'start it (npm start in the svc repository), or name another: --origin, $SVC_API_ORIGIN or svc login --origin <url>'
  const health = await healthz(origin)
  const hub: Check =
    health === undefined
      ? { id: 'hub', status: 'ok', message: `${origin} answers (from ${from[originFrom]})` }
      : {
          id: 'hub',
          status: 'warning',
          message: `${health} (from ${from[originFrom]})`,
          hint: setOrigin,
        }
  const makeToken = `make a token at ${origin}/settings/tokens, then svc login --origin ${origin}`
  if (token === undefined)
    return [
      hub,
      {
        id: 'login',
        status: 'warning',
        message: 'not logged in: no --token, no $SVC_HUB_TOKEN and no stored login',
        hint: makeToken,
      },
    ]
  const source = { flag: '--token', env: '$SVC_HUB_TOKEN', login: 'the login' }[tokenFrom!]
  if (health !== undefined)
    return [
      hub,
      {
        id: 'login',
        status: 'skipped',
        message: `a token from ${source}, not checked: the hub does not answer`,
      },
    ]
  try {
    const user = await currentUser(origin, token)
    return [
      hub,
      {
        id: 'login',
        status: 'ok',
        message: `${user.handle} on ${origin} (token from ${source})`,
        data: { user: user.handle, scopes: user.token.scopes, expiresAt: user.token.expiresAt },
      },
    ]
  } catch (error) {
    return [
      hub,
      {
        id: 'login',
        status: 'warning',
        message: `the token from ${source}: ${hubAdvice('doctor', error, credentials)}`,
        hint: makeToken,
      },
    ]
  }
}

/** Undefined when the hub answers `GET /healthz` with 200; what went wrong otherwise. */
async function healthz(origin: string): Promise<string | undefined> {
  try {
    const response = await fetch(`${origin}/healthz`, {
      headers: { 'user-agent': 'svc-cli' },
      signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS),
    })
    await response.body?.cancel()
    return response.ok
      ? undefined
      : `the hub at ${origin} answered /healthz with HTTP ${response.status}`
  } catch (error) {
    const name = (error as { name?: string }).name
    if (name === 'TimeoutError') return `the hub at ${origin} did not answer within 5 s`
    const cause = (error as { cause?: { code?: string; message?: string } }).cause
    return `cannot reach the hub at ${origin} (${cause?.code ?? cause?.message ?? (error as Error).message})`
  }
}
