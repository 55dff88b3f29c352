import type { CommandIO } from '../../command-io.js'
import { loginFilePath, removeLogin } from '../../hub/login-file.js'

export type LogoutResult = {
  readonly type: 'logged-out'
  /** False when there was no login to remove: a documented no-op. */
  readonly removed: boolean
  readonly loginFile: string
}

/** `svc logout`: removes the stored login. */
export async function logout(
  _options: Record<string, never>,
  io: CommandIO,
): Promise<LogoutResult> {
  const removed = removeLogin(io.env)
  return { type: 'logged-out', removed, loginFile: loginFilePath(io.env) }
}
