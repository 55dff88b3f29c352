import { CommandError, EXIT, RecipeError, type ExitCode } from '../../errors.js'
import { resolveCredentials } from '../../hub/credentials.js'
import { currentUser } from '../../hub/user.js'
import type { Output } from '../../output.js'

export type WhoamiFlags = { json?: boolean; token?: string; origin?: string }

/** `svc whoami`: who the resolved token belongs to, on which hub, and where each came from. */
export async function whoamiAction(
  flags: WhoamiFlags,
  output: Output,
  env: NodeJS.ProcessEnv,
): Promise<ExitCode> {
  const credentials = resolveCredentials(flags, env)
  if (credentials.token === undefined)
    throw new RecipeError({
      problem: 'Not logged in: no --token, no $SVC_HUB_TOKEN and no stored login.',
      usage: 'svc whoami [--token <pat>] [--origin <url>] [--json]',
      example: 'svc login --origin https://hub.example.com --with-token < token.txt',
      discover: 'svc login --help',
    })
  const user = await currentUser(credentials.origin, credentials.token).catch((error: Error) => {
    throw new CommandError(error.message)
  })
  if (flags.json)
    output.json({
      type: 'whoami',
      user: user.handle,
      origin: credentials.origin,
      tokenFrom: credentials.tokenFrom,
      originFrom: credentials.originFrom,
    })
  else
    output.result(
      `${user.handle} on ${credentials.origin} (token from ${describe(credentials.tokenFrom!)}, origin from ${describe(credentials.originFrom)})`,
    )
  return EXIT.ok
}

function describe(source: string): string {
  return (
    { flag: 'the flag', env: 'the environment', login: 'the login file', default: 'the default' }[
      source
    ] ?? source
  )
}
