import { buildBundle } from '../../bundle/build-bundle.js'
import type { CommandIO } from '../../command-io.js'
import { openProject } from '../../project/open-project.js'

export type BundleOptions = {
  readonly project?: string | undefined
  /** Build the stack server's `server.js` instead of the generators' `bundle.js`. */
  readonly server?: boolean | undefined
}

export type BundleResult = {
  readonly type: 'bundled'
  readonly projectName: string
  readonly bundlePath: string
  readonly bytes: number
  /** The keys of the generators the bundle holds. */
  readonly generators: readonly string[]
  readonly totalTimeMs: number
}

const RECIPE = {
  usage: 'svc bundle [project] [--server] [--json]',
  example: 'svc bundle demo',
}

/**
 * `svc bundle <project>`: `worker.ts` → `bundle.js`, recording the generators it holds; with
 * `--server`, `server.ts` → the self-contained `server.js` of the stack server.
 */
export async function bundle(options: BundleOptions, io: CommandIO): Promise<BundleResult> {
  const paths = openProject(options.project, io.cwd, RECIPE)
  const built = await buildBundle(paths, options.server ? 'server' : 'worker')
  return {
    type: 'bundled',
    projectName: paths.name,
    bundlePath: built.path,
    bytes: built.bytes,
    generators: built.generators.map((generator) => generator.key),
    totalTimeMs: Math.round(built.ms),
  }
}
