import { EXIT, type ExitCode } from '../../errors.js'
import type { Output } from '../../output.js'
import type { LoginResult } from './index.js'

export function renderLogin(result: LoginResult, output: Output): ExitCode {
  if (output.format === 'json') output.json(result)
  else
    output.result(`Logged in to ${result.origin} as ${result.user} (saved in ${result.loginFile}).`)
  return EXIT.ok
}
