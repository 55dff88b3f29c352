import type { User } from '@svc/hub-api'
import { StageFailure } from '../../errors.js'
import type { Credentials } from '../../hub/credentials.js'
import { currentUser } from '../../hub/user.js'

/** The account `svc init` writes without a login: no hub has it. */
export const PLACEHOLDER_ACCOUNT = 'local'

/**
 * Before anything is bundled: the stack's account must be the token's user or one of their
 * organisations (`GET /v1/user` says both), else publishing can only fail, after the bundle, with
 * a 404 or 403 that does not say what to write instead. A StageFailure at `identity` names the
 * fix. When the hub cannot tell (down, a refused token), the publish itself reports that; only
 * the `@local` placeholder is refused then too, since no hub has it.
 */
export async function checkAccount(
  stack: { readonly account: string; readonly slug: string },
  credentials: Credentials & { readonly token: string },
  manifest: string,
): Promise<void> {
  const { account, slug } = stack
  let user: User
  try {
    user = await currentUser(credentials.origin, credentials.token)
  } catch {
    if (account === PLACEHOLDER_ACCOUNT)
      throw new StageFailure(
        'identity',
        `@${account}/${slug} is the placeholder svc init writes without a login, and no hub has the account '${account}': set "name": "@<your handle>/${slug}" in ${manifest} (svc whoami tells your handle)`,
      )
    return
  }
  const organizations = user.organizations.map((o) => o.handle)
  if (account === user.handle || organizations.includes(account)) return
  const others =
    organizations.length > 0
      ? ` (or an organisation's: ${organizations.map((o) => `@${o}/${slug}`).join(', ')})`
      : ''
  const why =
    account === PLACEHOLDER_ACCOUNT
      ? `@${account}/${slug} is the placeholder svc init writes without a login`
      : `'${account}' is neither you (${user.handle} on ${credentials.origin}) nor one of your organisations`
  throw new StageFailure(
    'identity',
    `${why}: set "name": "@${user.handle}/${slug}" in ${manifest}${others}`,
  )
}
