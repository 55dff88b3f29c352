import { EXIT, type ExitCode } from '../../errors.js'
import type { Output } from '../../output.js'
import type { InstallResult } from './index.js'

export function renderInstall(result: InstallResult, output: Output): ExitCode {
  if (output.format === 'json') output.json(result)
  else if (result.type === 'generators')
    for (const g of result.generators) output.result(`${g.key.padEnd(20)} ${g.summary}`)
  else {
    for (const { key, specifier, requiredBy } of result.added)
      output.result(
        `Installed ${key} (${specifier}) in ${result.projectName}` +
          (requiredBy ? `: ${requiredBy} builds on it` : ''),
      )
    for (const key of result.unchanged)
      output.result(`${key} is already installed in ${result.projectName}`)
  }
  return EXIT.ok
}
