import type { CommandIO } from '../command-io.js'
import { resolveCredentials } from './credentials.js'
import { hubHealth, installLine, versionMismatch } from './hub-version.js'

/** How long `svc --version` waits for the hub: it must stay instant when the hub is away. */
const VERSION_TIMEOUT_MS = 800

/**
 * After `svc --version`: when a hub is configured (a login, `$SVC_API_ORIGIN` or
 * `$SVC_HUB_TOKEN`), asks its version and, when it differs from the CLI's, prints one line on
 * stderr naming the install that matches the hub. A hub that is away, slow or unreadable prints
 * nothing: `--version` answers and exits 0 whatever the hub does.
 */
export async function versionNotice(cliVersion: string, io: CommandIO): Promise<void> {
  try {
    const { origin, originFrom, tokenFrom } = resolveCredentials({}, io.env)
    if (originFrom === 'default' && tokenFrom === undefined) return
    const health = await hubHealth(origin, VERSION_TIMEOUT_MS)
    if (health.answered && health.version !== undefined && health.version !== cliVersion)
      io.stderr.write(
        `note: ${versionMismatch(cliVersion, origin, health.version)}; install its CLI: ${installLine(origin, health.version)}\n`,
      )
  } catch {
    // A login file svc cannot read, an origin that is not one: other commands say so.
  }
}
