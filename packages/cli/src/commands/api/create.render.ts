import { EXIT, type ExitCode } from '../../errors.js'
import type { Output } from '../../output.js'
import type { ApiCreateResult } from './create.js'

export function renderApiCreate(result: ApiCreateResult, output: Output): ExitCode {
  const { api } = result
  if (output.format === 'json') {
    output.json(result)
    return EXIT.ok
  }
  output.result(`Created ${api.owner}/${api.slug} (${api.visibility}) on ${result.origin}`)
  output.result(`  name    ${api.name}`)
  if (api.sourceUrl) output.result(`  source  ${api.sourceUrl}`)
  output.result(`  page    ${api.url}`)
  output.result(
    `Push its first revision: svc api push ${api.owner}/${api.slug} openapi.yaml${api.sourceUrl ? ` (or svc api refetch ${api.owner}/${api.slug})` : ''}`,
  )
  return EXIT.ok
}
