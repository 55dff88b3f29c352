import { EXIT, type ExitCode } from '../../errors.js'
import type { Output } from '../../output.js'
import type { WhoamiResult } from './index.js'

const SOURCES = {
  flag: 'the flag',
  env: 'the environment',
  login: 'the login file',
  default: 'the default',
} as const

export function renderWhoami(result: WhoamiResult, output: Output): ExitCode {
  if (output.format === 'json') output.json(result)
  else
    output.result(
      `${result.user} on ${result.origin} (token from ${SOURCES[result.tokenFrom]}, origin from ${SOURCES[result.originFrom]})`,
    )
  return EXIT.ok
}
