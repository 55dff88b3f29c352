import { join, relative } from 'node:path'
import { EXIT, type ExitCode } from '../../errors.js'
import type { Output } from '../../output.js'
import type { CloneResult } from './index.js'

export function renderClone(result: CloneResult, output: Output): ExitCode {
  if (output.format === 'json') {
    const { from: _from, ...shown } = result
    output.json(shown)
    return EXIT.ok
  }
  const folder = result.path
  output.result(
    `Cloned ${result.from} into ${relative(output.cwd, folder) || folder} (${result.files.length} files).`,
  )
  output.result(
    `Edit ${relative(output.cwd, join(folder, 'mod.ts'))}; svc generate ${result.projectName} bundles it again.`,
  )
  return EXIT.ok
}
