import { relative } from 'node:path'
import { EXIT, type ExitCode } from '../../errors.js'
import type { Output } from '../../output.js'
import type { InitResult } from './index.js'

export function renderInit(result: InitResult, output: Output): ExitCode {
  if (output.format === 'json') output.json(result)
  else {
    const shown = relative(output.cwd, result.path) || '.'
    output.result(
      `Created ${shown} (${result.name}); generated files will go to ${result.basePath}.`,
    )
    output.result(`Next: svc install gen-typescript gen-zod --project ${result.projectName}`)
    if (result.note !== undefined) output.diagnostic(`note: ${result.note}`)
  }
  return EXIT.ok
}
