import type { CommandIO } from '../../command-io.js'
import { CommandError } from '../../errors.js'
import { hubAdvice } from '../../hub/advice.js'
import { resolveCredentials, type OriginSource, type TokenSource } from '../../hub/credentials.js'
import { requireToken } from '../../hub/require-token.js'
import { currentUser } from '../../hub/user.js'

export type WhoamiOptions = {
  readonly token?: string | undefined
  readonly origin?: string | undefined
}

export type WhoamiResult = {
  readonly type: 'whoami'
  readonly user: string
  readonly origin: string
  readonly tokenFrom: TokenSource
  readonly originFrom: OriginSource
}

/** `svc whoami`: who the resolved token belongs to, on which hub, and where each came from. */
export async function whoami(options: WhoamiOptions, io: CommandIO): Promise<WhoamiResult> {
  const credentials = requireToken(resolveCredentials(options, io.env), {
    command: 'whoami',
    problem: 'Not logged in: no --token, no $SVC_HUB_TOKEN and no stored login.',
    usage: 'svc whoami [--token <pat>] [--origin <url>] [--json]',
    example: 'svc login --origin https://hub.example.com --with-token < token.txt',
  })
  const user = await currentUser(credentials.origin, credentials.token).catch((error: unknown) => {
    throw new CommandError(hubAdvice('whoami', error, credentials))
  })
  return {
    type: 'whoami',
    user: user.handle,
    origin: credentials.origin,
    tokenFrom: credentials.tokenFrom,
    originFrom: credentials.originFrom,
  }
}
