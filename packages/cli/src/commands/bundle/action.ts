import { relative } from 'node:path'
import { buildBundle } from '../../bundle/build-bundle.js'
import { EXIT, type ExitCode } from '../../errors.js'
import type { Output } from '../../output.js'
import { openProject } from '../../project/open-project.js'

export type BundleFlags = { json?: boolean; server?: boolean }

export const BUNDLE_RECIPE = {
  usage: 'svc bundle <project> [--server] [--json]',
  example: 'svc bundle demo',
}

/**
 * `svc bundle <project>`: `worker.ts` → `bundle.js`, recording the generators it holds; with
 * `--server`, `server.ts` → the self-contained `server.js` of the stack server.
 */
export async function bundleAction(
  project: string | undefined,
  flags: BundleFlags,
  output: Output,
  cwd: string,
): Promise<ExitCode> {
  const paths = openProject(project, cwd, BUNDLE_RECIPE)
  const built = await buildBundle(paths, flags.server ? 'server' : 'worker')
  const keys = built.generators.map((generator) => generator.key)
  if (flags.json)
    output.json({
      type: 'bundled',
      projectName: paths.name,
      bundlePath: built.path,
      bytes: built.bytes,
      generators: keys,
      totalTimeMs: Math.round(built.ms),
    })
  else
    output.result(
      `Bundled ${paths.name} (${keys.length === 0 ? 'no generators' : keys.join(', ')}) → ${relative(cwd, built.path)}, ${formatBytes(built.bytes)} in ${Math.round(built.ms)} ms`,
    )
  return EXIT.ok
}

export function formatBytes(bytes: number): string {
  return bytes < 1024 * 1024
    ? `${(bytes / 1024).toFixed(1)} KiB`
    : `${(bytes / 1024 / 1024).toFixed(2)} MiB`
}
