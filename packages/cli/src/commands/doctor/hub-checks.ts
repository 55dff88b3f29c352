import { RecipeError } from '../../errors.js'
import { hubAdvice } from '../../hub/advice.js'
import { resolveCredentials, type Credentials } from '../../hub/credentials.js'
import { hubHealth, installLine, versionMismatch } from '../../hub/hub-version.js'
import { currentUser } from '../../hub/user.js'
import type { Check } from './checks.js'

/** How long doctor waits for the hub: it is a quick look, not a publish. */
const HEALTH_TIMEOUT_MS = 5_000

/**
 * The hub and the login: does the hub answer `/healthz`, is it of the CLI's version, is there a
 * token, and does the hub take it (`GET /v1/user`). None is needed to generate locally, so what
 * is missing, refused or mismatched is a warning with its fix, never an error.
 */
export async function hubChecks(
  flags: {
    readonly token?: string | undefined
    readonly origin?: string | undefined
    readonly cliVersion: string
  },
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
  const answer = await hubHealth(origin, HEALTH_TIMEOUT_MS)
  const health = answer.answered ? undefined : answer.problem
  const hub: Check =
    health === undefined
      ? { id: 'hub', status: 'ok', message: `${origin} answers (from ${from[originFrom]})` }
      : {
          id: 'hub',
          status: 'warning',
          message: `${health} (from ${from[originFrom]})`,
          hint: setOrigin,
        }
  const version = answer.answered ? versionCheck(flags.cliVersion, origin, answer.version) : []
  const makeToken = `make a token at ${origin}/settings/tokens, then svc login --origin ${origin}`
  if (token === undefined)
    return [
      hub,
      ...version,
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
      ...version,
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
      ...version,
      {
        id: 'login',
        status: 'warning',
        message: `the token from ${source}: ${hubAdvice('doctor', error, credentials)}`,
        hint: makeToken,
      },
    ]
  }
}

/** Whether the CLI is the version of the hub that answered; none when the hub does not say. */
function versionCheck(cliVersion: string, origin: string, hubVersion: string | undefined): Check[] {
  if (hubVersion === undefined) return []
  const data = { cli: cliVersion, hub: hubVersion }
  return hubVersion === cliVersion
    ? [{ id: 'hub-version', status: 'ok', message: `svc and the hub are both ${cliVersion}`, data }]
    : [
        {
          id: 'hub-version',
          status: 'warning',
          message: versionMismatch(cliVersion, origin, hubVersion),
          hint: installLine(origin, hubVersion),
          data,
        },
      ]
}
