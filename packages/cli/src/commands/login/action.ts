import { isCancel, password } from '@clack/prompts'
import { CommandError, EXIT, RecipeError, type ExitCode } from '../../errors.js'
import { DEFAULT_ORIGIN, parseOrigin } from '../../hub/credentials.js'
import { HubError } from '../../hub/hub-client.js'
import { writeLogin } from '../../hub/login-file.js'
import { currentUser } from '../../hub/user.js'
import { canPrompt } from '../../interactive.js'
import type { Output } from '../../output.js'

export type LoginFlags = {
  origin?: string
  token?: string
  withToken?: boolean
  json?: boolean
  input?: boolean
}

export type LoginIO = {
  readonly env: NodeJS.ProcessEnv
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean }
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean }
}

const RECIPE = {
  usage: 'svc login [--origin <url>] [--token <pat> | --with-token]',
  example: 'echo "$SVC_HUB_TOKEN" | svc login --origin https://hub.example.com --with-token',
  discover:
    'svc-hub admin create-token <user> --scopes read,write:releases,write:projects (or the web app)',
}

/**
 * `svc login`: checks a personal access token with `GET /v1/user` and stores it with the origin
 * in the login file (mode 0600). The token comes from `--token`, from standard input with
 * `--with-token`, or from a hidden prompt on a terminal; it is never stored when the hub refuses it.
 */
export async function loginAction(
  flags: LoginFlags,
  output: Output,
  io: LoginIO,
): Promise<ExitCode> {
  if (flags.token !== undefined && flags.withToken)
    throw new RecipeError({
      ...RECIPE,
      problem: 'Give the token with --token or --with-token, not both.',
    })
  const originText = flags.origin ?? io.env.SVC_API_ORIGIN ?? DEFAULT_ORIGIN
  const origin = parseOrigin(originText)
  if (origin === undefined)
    throw new RecipeError({
      ...RECIPE,
      problem: `'${originText}' is not an http(s) origin such as https://hub.example.com.`,
    })
  const token = flags.token ?? (flags.withToken ? await readAll(io.stdin) : await ask(flags, io))
  if (token === '') throw new RecipeError({ ...RECIPE, problem: 'The token is empty.' })
  let user
  try {
    user = await currentUser(origin, token)
  } catch (error) {
    if (error instanceof HubError && error.status === 401)
      throw new CommandError(`the hub at ${origin} refused the token (401): nothing was stored`)
    throw new CommandError(
      `cannot check the token: ${(error as Error).message}; nothing was stored`,
    )
  }
  const path = writeLogin({ host: origin, token }, io.env)
  if (flags.json) output.json({ type: 'logged-in', origin, user: user.handle, loginFile: path })
  else output.result(`Logged in to ${origin} as ${user.handle} (saved in ${path}).`)
  return EXIT.ok
}

async function ask(flags: LoginFlags, io: LoginIO): Promise<string> {
  if (!canPrompt(flags, io))
    throw new RecipeError({
      ...RECIPE,
      problem:
        'svc login needs a token: --token <pat>, or --with-token to read it from standard input.',
    })
  const answer = await password({
    message: 'Personal access token',
    input: io.stdin as NodeJS.ReadStream,
    output: io.stderr as NodeJS.WriteStream,
  })
  if (isCancel(answer)) throw new CommandError('login cancelled: nothing was stored')
  return answer.trim()
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer))
  return Buffer.concat(chunks).toString('utf8').trim()
}
