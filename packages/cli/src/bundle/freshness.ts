import type { ProjectPaths } from '../project/app-root.js'
import { installedPackage } from '../project/official-generators.js'
import { ENGINE_IMPORT, type GeneratorImport } from '../project/root-manifest.js'
import { clonedDigest } from './cloned-digest.js'
import { readBundleHeader, staleness, type Staleness } from './bundle-header.js'

export type BundleState =
  | { readonly state: 'missing' }
  | { readonly state: 'fresh' }
  | { readonly state: 'stale'; readonly stale: Staleness }

/** Whether `bundle.js` was built for the project's generators, sources and engine as they are. */
export function bundleState(
  paths: ProjectPaths,
  generators: readonly GeneratorImport[],
): BundleState {
  const header = readBundleHeader(paths.bundle)
  if (header === undefined) return { state: 'missing' }
  const stale = staleness(header, {
    generators,
    engine: installedPackage(ENGINE_IMPORT).version,
    cloned: clonedDigest(paths.dir, generators),
  })
  return stale === undefined ? { state: 'fresh' } : { state: 'stale', stale }
}
