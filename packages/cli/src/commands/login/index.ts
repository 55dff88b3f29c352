import { isCancel, password } from '@clack/prompts'
import type { CommandIO } from '../../command-io.js'
import { CommandError, RecipeError } from '../../errors.js'
import { hubAdvice } from '../../hub/advice.js'
import { DEFAULT_ORIGIN, parseOrigin } from '../../hub/credentials.js'
import { writeLogin } from '../../hub/login-file.js'
import { currentUser } from '../../hub/user.js'
import { canPrompt, promptStreams } from '../../interactive.js'

export type LoginOptions = {
  readonly origin?: string | undefined
  readonly token?: string | undefined
  /** Read the token from standard input. */
  readonly withToken?: boolean | undefined
  readonly json?: boolean | undefined
  readonly input?: boolean | undefined
}

export type LoginResult = {
  readonly type: 'logged-in'
  readonly origin: string
  readonly user: string
  readonly loginFile: string
}

const RECIPE = {
  usage: 'svc login [--origin <url>] [--token <pat> | --with-token]',
  example: 'echo "$SVC_HUB_TOKEN" | svc login --origin https://hub.example.com --with-token',
  discover: '<origin>/settings/tokens in the web app, or svc-hub admin create-token <user>',
}

/** Where a token for `origin` is made, and which scopes: said before the prompt and on refusal. */
function whereToMakeToken(origin: string): string {
  return `Make a token at ${origin}/settings/tokens; the scopes each command needs are in svc login --help.`
}

/**
 * `svc login`: checks a personal access token with `GET /v1/user` and stores it with the origin
 * in the login file (mode 0600). The token comes from `--token`, from standard input with
 * `--with-token`, or from a hidden prompt on a terminal; it is never stored when the hub refuses it.
 */
export async function login(options: LoginOptions, io: CommandIO): Promise<LoginResult> {
  if (options.token !== undefined && options.withToken)
    throw new RecipeError({
      ...RECIPE,
      problem: 'Give the token with --token or --with-token, not both.',
    })
  const originText = options.origin ?? io.env.SVC_API_ORIGIN ?? DEFAULT_ORIGIN
  const origin = parseOrigin(originText)
  if (origin === undefined)
    throw new RecipeError({
      ...RECIPE,
      problem: `'${originText}' is not an http(s) origin such as https://hub.example.com.`,
    })
  const token =
    options.token ?? (options.withToken ? await readAll(io.stdin) : await ask(origin, options, io))
  if (token === '') throw new RecipeError({ ...RECIPE, problem: 'The token is empty.' })
  let user
  try {
    user = await currentUser(origin, token)
  } catch (error) {
    throw new CommandError(hubAdvice('login', error, { origin, token }))
  }
  const loginFile = writeLogin({ host: origin, token }, io.env)
  return { type: 'logged-in', origin, user: user.handle, loginFile }
}

async function ask(origin: string, options: LoginOptions, io: CommandIO): Promise<string> {
  if (!canPrompt(options, io))
    throw new RecipeError({
      ...RECIPE,
      problem:
        'svc login needs a token: --token <pat>, or --with-token to read it from standard input.',
      discover: `${origin}/settings/tokens in the web app, or svc-hub admin create-token <user>`,
    })
  io.stderr.write(`${whereToMakeToken(origin)}\n`)
  const answer = await password({ message: 'Personal access token', ...promptStreams(io) })
  if (isCancel(answer)) throw new CommandError('login cancelled: nothing was stored')
  return answer.trim()
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer))
  return Buffer.concat(chunks).toString('utf8').trim()
}
