import { EXIT, type ExitCode } from '../../errors.js'
import type { Output } from '../../output.js'
import type { LogoutResult } from './index.js'

/** With no login stored it is still a success (exit 0). */
export function renderLogout(result: LogoutResult, output: Output): ExitCode {
  if (output.format === 'json') output.json(result)
  else
    output.result(
      result.removed
        ? `Logged out: removed ${result.loginFile}.`
        : `Not logged in: there is no ${result.loginFile}.`,
    )
  return EXIT.ok
}
