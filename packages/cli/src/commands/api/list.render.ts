import { EXIT, type ExitCode } from '../../errors.js'
import type { Output } from '../../output.js'
import type { ApiListResult } from './list.js'

export function renderApiList(result: ApiListResult, output: Output): ExitCode {
  if (output.format === 'json') {
    output.json(result)
    return EXIT.ok
  }
  const scope = result.authenticated ? '' : ' (no token: public APIs only)'
  if (result.apis.length === 0) {
    output.result(
      `No APIs on ${result.origin}${scope}. Create one with svc api create <owner/slug>.`,
    )
    return EXIT.ok
  }
  const names = result.apis.map((api) => `${api.owner}/${api.slug}`)
  const width = Math.max(...names.map((name) => name.length))
  output.result(
    `${result.apis.length} ${result.apis.length === 1 ? 'API' : 'APIs'} on ${result.origin}${scope}`,
  )
  result.apis.forEach((api, index) =>
    output.result(`  ${names[index]!.padEnd(width)}  ${api.visibility.padEnd(7)}  ${api.name}`),
  )
  return EXIT.ok
}
