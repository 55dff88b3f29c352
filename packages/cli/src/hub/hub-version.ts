import { HealthSchema } from '@svc/hub-api'

/** What `GET /healthz` told of a hub: its version (undefined from a hub too old to say), or why not. */
export type HubHealth =
  | { readonly answered: true; readonly version: string | undefined }
  | { readonly answered: false; readonly problem: string }

/** Asks the hub at `origin` whether it answers, and its version, within `timeoutMs`. */
export async function hubHealth(origin: string, timeoutMs: number): Promise<HubHealth> {
  let response: Response
  try {
    response = await fetch(`${origin}/healthz`, {
      headers: { accept: 'application/json', 'user-agent': 'svc-cli' },
      signal: AbortSignal.timeout(timeoutMs),
    })
  } catch (error) {
    const name = (error as { name?: string }).name
    if (name === 'TimeoutError')
      return {
        answered: false,
        problem: `the hub at ${origin} did not answer within ${seconds(timeoutMs)}`,
      }
    const cause = (error as { cause?: { code?: string; message?: string } }).cause
    return {
      answered: false,
      problem: `cannot reach the hub at ${origin} (${cause?.code ?? cause?.message ?? (error as Error).message})`,
    }
  }
  if (!response.ok) {
    await response.body?.cancel()
    return {
      answered: false,
      problem: `the hub at ${origin} answered /healthz with HTTP ${response.status}`,
    }
  }
  const body: unknown = await response.json().catch(() => undefined)
  const parsed = HealthSchema.safeParse(body)
  return { answered: true, version: parsed.success ? parsed.data.version : undefined }
}

/** The one line that installs, in a project, the CLI the hub at `origin` serves for its version. */
export function installLine(origin: string, version: string): string {
  return `npm i -D ${origin}/downloads/svc-cli-${version}.tgz`
}

/** What differs between a CLI and a hub of different versions. */
export function versionMismatch(cliVersion: string, origin: string, hubVersion: string): string {
  return `svc ${cliVersion} does not match the hub at ${origin} (${hubVersion})`
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`
}
