import { HubError } from './hub-client.js'

/** The commands that talk to the hub, each with its own words for what a failure means. */
export type HubCommand =
  | 'login'
  | 'whoami'
  | 'publish'
  | 'push'
  | 'pull'
  | 'api create'
  | 'api list'
  | 'api push'
  | 'api refetch'
  | 'api read'
  | 'api webhooks'
  | 'projects list'

export type HubFailure = {
  /** The hub's origin. */
  readonly origin: string
  /** What the request was about: the hub project `@account/slug`, the API `owner/slug` … */
  readonly target: string
  /** What the hub client said happened (docs/commands/login.md#hub-errors). */
  readonly message: string
}

type Advice = { readonly [status: number]: (failure: HubFailure) => string } & {
  /** Any other status, no answer at all, or an answer that is not the hub's. */
  readonly otherwise: (failure: HubFailure) => string
}

const REFUSED = ({ message }: HubFailure) =>
  `the hub refused the token (${message}); run svc login again or pass --token`

/** An API subcommand's 404: the API (or its owner) is not there, or not for this token. */
const NO_API = ({ target, origin, message }: HubFailure) =>
  `the API ${target} does not exist on ${origin}, or the token cannot read it (${message}); create it with svc api create ${target}, or list them with svc api list`

/** An API subcommand's 403: the scope it needs, and write access on the owner. */
const API_FORBIDDEN =
  (scope: string) =>
  ({ target, message }: HubFailure) =>
    `not allowed (${message}); the token needs the scope ${scope} and write access on the owner of ${target}`

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
  'api create': {
    401: REFUSED,
    403: API_FORBIDDEN('write:apis'),
    404: ({ target, origin, message }) =>
      `cannot create ${target}: its owner is not an account on ${origin} (${message})`,
    409: ({ target }) =>
      `the API ${target} exists already; push a revision with svc api push ${target} <file>`,
    otherwise: ({ target, message }) => `cannot create ${target}: ${message}`,
  },
  'api list': {
    401: REFUSED,
    404: ({ target, origin }) => `there is no account '${target}' on ${origin}`,
    otherwise: ({ message }) => message,
  },
  'api push': {
    401: REFUSED,
    403: API_FORBIDDEN('write:apis'),
    404: NO_API,
    otherwise: ({ target, message }) => `cannot push to ${target}: ${message}`,
  },
  'api refetch': {
    401: REFUSED,
    403: API_FORBIDDEN('write:apis'),
    404: NO_API,
    otherwise: ({ target, message }) => `cannot refetch ${target}: ${message}`,
  },
  'api read': {
    401: REFUSED,
    403: ({ message }) =>
      `not allowed (${message}); a private API needs a token with read or write:apis`,
    // The API, or the revision asked for, or any revision at all (`latest`).
    404: ({ target, origin, message }) =>
      `not found on ${origin} (${message}); list the APIs with svc api list, create this one with svc api create ${target}, list its revisions with svc api revisions ${target}`,
    otherwise: ({ message }) => message,
  },
  'api webhooks': {
    401: REFUSED,
    403: API_FORBIDDEN('admin:webhooks'),
    404: ({ target, origin, message }) =>
      `not found on ${origin}: ${message} (list the APIs with svc api list, the webhooks of ${target} with svc api webhooks list ${target})`,
    otherwise: ({ message }) => message,
  },
  'projects list': {
    401: REFUSED,
    403: ({ message }) =>
      `not allowed (${message}); the token needs the scope read or write:projects`,
    404: ({ target, origin }) => `there is no account '${target}' on ${origin}`,
    otherwise: ({ message }) => message,
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
