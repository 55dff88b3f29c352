import type { Changelog } from '@svc/engine'
import { EXIT, type ExitCode } from '../../errors.js'
import type { Output } from '../../output.js'
import { changelogLines } from '../diff/render.js'
import type { ApiChangesResult } from './changes.js'
import { label } from './push.render.js'

export function renderApiChanges(result: ApiChangesResult, output: Output): ExitCode {
  if (output.format === 'json') {
    output.json(result)
    return EXIT.ok
  }
  const { revision, previousRevision } = result
  if (previousRevision === null) {
    output.result(
      `${result.api} revision ${label(revision)} is the first: nothing to compare with.`,
    )
    return EXIT.ok
  }
  output.result(`${result.api} revision ${label(revision)} against ${label(previousRevision)}:`)
  // The hub's changelog is `svc diff --json`'s; its rule ids are strings the engine may not know.
  const changelog = result as unknown as Changelog
  for (const line of changelogLines(changelog, output.color)) output.result(line)
  const { acceptance } = revision
  if (acceptance)
    output.result(
      `\nAccepted as deliberate by ${acceptance.by} at ${acceptance.at}: ${acceptance.reason}`,
    )
  return EXIT.ok
}
