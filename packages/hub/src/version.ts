import { readFileSync } from 'node:fs'

/**
 * The hub's version (its package.json's): what `GET /healthz` says, and the version of the CLI it
 * serves at `/downloads/svc-cli.tgz`. Not `HUB_API_VERSION`, the version of the `/v1` description.
 */
export const HUB_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string
  }
).version
