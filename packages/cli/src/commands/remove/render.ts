import { EXIT, type ExitCode } from '../../errors.js'
import type { Output } from '../../output.js'
import type { RemoveResult } from './index.js'

export function renderRemove(result: RemoveResult, output: Output): ExitCode {
  const { type, projectName, removed, deletedFolders, folderOf } = result
  if (output.format === 'json') output.json({ type, projectName, removed, deletedFolders })
  else
    for (const key of removed) {
      const folder = folderOf.get(key)
      output.result(
        `Removed ${key} from ${projectName}${folder === undefined ? '' : ` and deleted ${folder}/`}`,
      )
    }
  return EXIT.ok
}
