import { relative } from 'node:path'
import { EXIT, type ExitCode } from '../../errors.js'
import type { Output } from '../../output.js'
import { formatDestination } from '../push/destination.js'
import type { PullResult } from './index.js'

/** An answered No is a success that changed nothing. */
export function renderPull(result: PullResult, output: Output): ExitCode {
  const { type, projectName, project, origin, changed } = result
  const clientConfig = relative(output.cwd, result.clientConfig)
  if (type === 'aborted') {
    if (output.format === 'json') output.json({ type, projectName, project })
    else output.result(`Pull aborted: ${clientConfig} is unchanged.`)
  } else if (output.format === 'json') output.json({ type, projectName, project, origin, changed })
  else
    output.result(
      changed.length === 0
        ? `${projectName} already matches ${formatDestination(project)}.`
        : `Pulled ${formatDestination(project)} into ${clientConfig}: replaced ${changed.join(', ')}.`,
    )
  return EXIT.ok
}
