import type { Store } from '../store/store.js'
import { hashPassword, passwordProblem } from '../auth/passwords.js'
import { AdminError } from './admin.js'

/**
 * `svc-hub admin set-password`: gives the user a new web app password (the rules of sign-up) and
 * signs out all of its browser sessions, so that whoever knew the old one is out too.
 */
export async function setUserPassword(
  store: Store,
  userHandle: string,
  password: string,
): Promise<{ user: string; sessionsEnded: number }> {
  const user = await store.accounts.find(userHandle)
  if (!user) throw new AdminError(`there is no user '${userHandle}'`)
  if (user.kind !== 'user') {
    throw new AdminError(`'${userHandle}' is an organisation, not a user; only users sign in`)
  }
  if (password === '') throw new AdminError('no password: give it on stdin, on one line')
  const problem = passwordProblem(password, user.handle)
  if (problem) throw new AdminError(`the password is refused: ${lowerFirst(problem)}`)
  const hash = await hashPassword(password)
  const sessionsEnded = await store.transaction(async (tx) => {
    await tx.sessions.setPassword(user.id, hash)
    return tx.sessions.deleteForUser(user.id)
  })
  return { user: user.handle, sessionsEnded }
}

/** A page's sentence as a part of an admin error line. */
function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1).replace(/\.$/, '')
}
