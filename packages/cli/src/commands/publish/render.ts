import { relative } from 'node:path'
import { EXIT, type ExitCode } from '../../errors.js'
import type { Output } from '../../output.js'
import type { PublishResult } from './index.js'

/** Exit 1 when a stage failed, named on stderr with the reason below it. */
export function renderPublish(result: PublishResult, output: Output): ExitCode {
  if (output.format === 'json') {
    output.json(result)
    return result.type === 'published' ? EXIT.ok : EXIT.failure
  }
  if (result.type === 'failed') {
    output.diagnostic(
      `Publishing ${result.projectName} failed at stage ${result.stage}:\n  ${result.reason}`,
    )
    return EXIT.failure
  }
  output.result(
    `Published ${result.projectName} as ${result.stack.account}/${result.stack.slug}@${result.version}`,
  )
  output.result(`  bundle   ${relative(output.cwd, result.bundlePath)}`)
  output.result(`  bytes    ${result.bundleBytes}`)
  output.result(`  sha256   ${result.bundleSha256}`)
  output.result(`  source   ${result.sourceFileCount} files, ${result.sourceTotalBytes} bytes`)
  output.result(`  version  ${result.versionUrl}`)
  return EXIT.ok
}
