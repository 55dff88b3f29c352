import { EXIT, type ExitCode } from '../../errors.js'
import type { Output } from '../../output.js'
import type { ApiRevisionsResult } from './revisions.js'

export function renderApiRevisions(result: ApiRevisionsResult, output: Output): ExitCode {
  if (output.format === 'json') {
    output.json(result)
    return EXIT.ok
  }
  if (result.revisions.length === 0) {
    output.result(
      `${result.api} has no revisions yet. Push one with svc api push ${result.api} openapi.yaml.`,
    )
    return EXIT.ok
  }
  const count = result.revisions.length
  output.result(`${count} ${count === 1 ? 'revision' : 'revisions'} of ${result.api}, newest first`)
  const sequence = Math.max(...result.revisions.map((r) => String(r.sequence).length)) + 1
  const version = Math.max(1, ...result.revisions.map((r) => (r.version ?? '-').length))
  for (const r of result.revisions)
    output.result(
      `  ${`#${r.sequence}`.padEnd(sequence)}  ${r.id}  ${(r.version ?? '-').padEnd(version)}  ${r.retrievedAt}  ${r.origin.padEnd(7)}  ${r.createdBy}`,
    )
  return EXIT.ok
}
