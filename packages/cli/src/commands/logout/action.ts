import { EXIT, type ExitCode } from '../../errors.js'
import { loginFilePath, removeLogin } from '../../hub/login-file.js'
import type { Output } from '../../output.js'

/** `svc logout`: removes the stored login; with none stored it is a documented no-op (exit 0). */
export function logoutAction(
  flags: { json?: boolean },
  output: Output,
  env: NodeJS.ProcessEnv,
): ExitCode {
  const removed = removeLogin(env)
  const path = loginFilePath(env)
  if (flags.json) output.json({ type: 'logged-out', removed, loginFile: path })
  else
    output.result(removed ? `Logged out: removed ${path}.` : `Not logged in: there is no ${path}.`)
  return EXIT.ok
}
