import { HubError } from './hub-client.js'

/** The commands that talk to the hub, each with its own words for what a failure means. */
export type HubCommand = 'login' | 'whoami' | 'publish' | 'push' | 'pull'

export type HubFailure = {
  /** The hub's origin. */
  readonly origin: string
  /** What the request was about: the hub project `@account/slug`, for push and pull. */
  readonly target: string
  /** What the hub client said happened (docs/commands/login.md#hub-errors). */
  readonly message: string
}

type Advice = { readonly [status: number]: (failure: HubFailure) => string } & {
  /** Any other status, no answer at all, or an answer that is not the hub's. */
  readonly otherwise: (failure: HubFailure) => string
}

/** Command → HTTP status → the sentence the user reads. The one table of hub advice. */
const ADVICE: Readonly<Record<HubCommand, Advice>> = {
  login: {
    401: ({ origin }) => `the hub at ${origin} refused the token (401): nothing was stored`,
    otherwise: ({ message }) => `cannot check the token: ${message}; nothing was stored`,
  },
  whoami: { otherwise: ({ message }) => message },
  publish: { otherwise: ({ message }) => message },
  push: {
    401: ({ message }) =>
      `the hub refused the token (${message}); run svc login again or pass --token`,
    403: ({ target, message }) =>
      `not allowed to write ${target} (${message}); the token needs write:projects and write access to the project`,
    404: ({ target, origin }) =>
      `the project ${target} does not exist on ${origin}; create it in the web app first (svc push never creates one)`,
    otherwise: ({ message }) => message,
  },
  pull: {
    404: ({ target, origin }) => `the project ${target} does not exist on ${origin}`,
    otherwise: ({ target, message }) => `cannot pull ${target}: ${message}`,
  },
}

/** What a failed hub request means to the user of `command`, in one sentence. */
export function hubAdvice(
  command: HubCommand,
  error: unknown,
  context: { readonly origin: string; readonly target?: string },
): string {
  const failure = {
    origin: context.origin,
    target: context.target ?? context.origin,
    message: error instanceof Error ? error.message : String(error),
  }
  const advice = ADVICE[command]
  const status = error instanceof HubError ? error.status : undefined
  return (status !== undefined ? advice[status] : undefined)?.(failure) ?? advice.otherwise(failure)
}
