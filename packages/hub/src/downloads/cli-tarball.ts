import { join } from 'node:path'
import { HUB_VERSION } from '../version.js'

/** The CLI of this hub's version, as `npm run build` names it (scripts/pack-cli.js). */
export const CLI_TARBALL = `svc-cli-${HUB_VERSION}.tgz`

/** Where the hub reads the CLI's tarball from. */
export function cliTarballPath(downloadsDir: string): string {
  return join(downloadsDir, CLI_TARBALL)
}

/**
 * The lines that install the CLI from the hub at `origin` (docs/install.md). A project pins the
 * versioned file, so its lockfile's integrity stays true when the hub moves on; a CI runner's
 * global install takes whatever the hub serves, which always matches it.
 */
export function installLines(origin: string) {
  return {
    project: `npm i -D ${origin}/downloads/${CLI_TARBALL}`,
    runner: `npm i -g ${origin}/downloads/svc-cli.tgz`,
    once: `npx --yes --package ${origin}/downloads/svc-cli.tgz svc --version`,
  }
}
