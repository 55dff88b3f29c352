import { relative } from 'node:path'
import { EXIT, type ExitCode } from '../../errors.js'
import type { Output } from '../../output.js'
import type { BundleResult } from './index.js'

export function renderBundle(result: BundleResult, output: Output): ExitCode {
  if (output.format === 'json') output.json(result)
  else {
    const { generators: keys } = result
    output.result(
      `Bundled ${result.projectName} (${keys.length === 0 ? 'no generators' : keys.join(', ')}) → ${relative(output.cwd, result.bundlePath)}, ${formatBytes(result.bytes)} in ${result.totalTimeMs} ms`,
    )
  }
  return EXIT.ok
}

function formatBytes(bytes: number): string {
  return bytes < 1024 * 1024
    ? `${(bytes / 1024).toFixed(1)} KiB`
    : `${(bytes / 1024 / 1024).toFixed(2)} MiB`
}
