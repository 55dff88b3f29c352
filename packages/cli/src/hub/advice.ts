import { HubError } from './hub-client.js'
import { malformedPat } from './token-format.js'

export type HubFailure = {
  /** The hub's origin. */
  readonly origin: string
  /** What the request was about: the hub project or stack `@account/slug`, the API `owner/slug` … */
  readonly target: string
  /** What the hub client said happened (docs/commands/login.md#hub-errors). */
  readonly message: string
  /** The scopes the command's token needs (HUB_COMMANDS), as words: `write:projects`. */
  readonly scopes: string
}

type Words = (failure: HubFailure) => string

/** The statuses the advice has words for; `5xx` is any 500–599, `unreachable` no answer at all. */
export type HubStatus = 401 | 403 | 404 | 409 | 413 | 429 | '5xx' | 'unreachable'

/** What every hub command says for a status, unless the command says otherwise. */
const SHARED: Readonly<Record<HubStatus | 'otherwise', Words>> = {
  401: ({ message }) =>
    `the hub refused the token (${message}); run svc login again or pass --token`,
  403: ({ target, message, scopes }) =>
    `not allowed to do this to ${target} (${message}); the token needs ${scopes} and access to the account`,
  404: ({ target, origin, message }) => `${target} does not exist on ${origin} (${message})`,
  409: ({ message }) => `${message}; it already exists or changed meanwhile`,
  413: ({ message }) =>
    `${message}; the hub stores no more for that account (its storage quota; its members see it in the web app's settings, its operator can raise it), or a proxy before the hub refuses uploads this large`,
  429: ({ message }) => `${message}; too many requests: wait a minute and run it again`,
  '5xx': ({ message }) =>
    `${message}; the hub failed: run it again later, or ask its operator to read its logs`,
  unreachable: ({ message }) =>
    `${message}; is the hub running, and are --origin, $SVC_API_ORIGIN or the login right?`,
  otherwise: ({ message }) => message,
}

/** An API subcommand's 404: the API (or its owner) is not there, or not for this token. */
const NO_API: Words = ({ target, origin, message }) =>
  `the API ${target} does not exist on ${origin}, or the token cannot read it (${message}); create it with svc api create ${target}, or list them with svc api list`

/** An API subcommand's 403: the scope it needs, and write access on the owner. */
const API_FORBIDDEN =
  (scope: string): Words =>
  ({ target, message }) =>
    `not allowed (${message}); the token needs the scope ${scope} and write access on the owner of ${target}`

export type HubCommandAdvice = {
  /** How the scope table of `svc login --help` names it, when not `svc <key>`. */
  readonly shown?: string
  /** The PAT scopes the command's requests need, any one of them (docs/commands/login.md). */
  readonly scopes: readonly string[]
  /** Its own words for some statuses, over SHARED. */
  readonly words?: Partial<Record<HubStatus | 'otherwise', Words>>
  /** Wraps whatever the words say (pull: `cannot pull <project>: …`). */
  readonly frame?: (sentence: string, failure: HubFailure, status?: HubStatus) => string
}

/**
 * Every command that talks to the hub: the scopes its token needs and where its words differ
 * from SHARED. The one table of hub advice; a new hub command is one entry here.
 */
export const HUB_COMMANDS = {
  login: {
    scopes: ['any'],
    words: {
      401: ({ origin, message }) =>
        `the hub at ${origin} refused the token (${message.replace(/^the hub answered /, '')}); make one at ${origin}/settings/tokens`,
      otherwise: ({ message }) => `cannot check the token: ${message}`,
      unreachable: (failure) => `cannot check the token: ${SHARED.unreachable(failure)}`,
    },
    frame: (sentence) => `${sentence}; nothing was stored`,
  },
  whoami: { scopes: ['any'] },
  publish: {
    scopes: ['write:releases'],
    words: {
      409: ({ message }) => `${message} (raise "version" in deno.json, or pass --version)`,
    },
  },
  push: {
    scopes: ['write:projects'],
    words: {
      403: ({ target, message }) =>
        `not allowed to write ${target} (${message}); the token needs write:projects and write access to the project`,
      404: ({ target, origin }) =>
        `the project ${target} does not exist on ${origin}; create it in the web app first (svc push never creates one)`,
    },
  },
  pull: {
    scopes: ['read', 'write:projects'],
    words: { 404: ({ target, origin }) => `the project ${target} does not exist on ${origin}` },
    frame: (sentence, { target }, status) =>
      status === 404 ? sentence : `cannot pull ${target}: ${sentence}`,
  },
  doctor: { scopes: ['any'] },
  'api create': {
    scopes: ['write:apis'],
    words: {
      403: API_FORBIDDEN('write:apis'),
      404: ({ target, origin, message }) =>
        `cannot create ${target}: its owner is not an account on ${origin} (${message})`,
      409: ({ target }) =>
        `the API ${target} exists already; push a revision with svc api push ${target} <file>`,
      otherwise: ({ target, message }) => `cannot create ${target}: ${message}`,
    },
  },
  'api list': {
    scopes: ['read', 'write:apis'],
    words: { 404: ({ target, origin }) => `there is no account '${target}' on ${origin}` },
  },
  'api push': {
    scopes: ['write:apis'],
    words: {
      403: API_FORBIDDEN('write:apis'),
      404: NO_API,
      otherwise: ({ target, message }) => `cannot push to ${target}: ${message}`,
    },
  },
  'api refetch': {
    scopes: ['write:apis'],
    words: {
      403: API_FORBIDDEN('write:apis'),
      404: NO_API,
      otherwise: ({ target, message }) => `cannot refetch ${target}: ${message}`,
    },
  },
  'api accept': {
    scopes: ['write:apis'],
    words: {
      403: API_FORBIDDEN('write:apis'),
      404: ({ target, origin, message }) =>
        `not found on ${origin} (${message}); list the revisions of ${target} with svc api revisions ${target}`,
      // Accepted already (by whom, when, why), or nothing to accept: the hub's words say which.
      409: ({ message }) => message.replace(/^the hub answered HTTP 409 \w+: /, ''),
      otherwise: ({ target, message }) => `cannot accept the changes of ${target}: ${message}`,
    },
  },
  'api diff': {
    scopes: ['read', 'write:apis'],
    words: {
      403: ({ message }) =>
        `not allowed (${message}); a private API needs a token with read or write:apis`,
      404: ({ target, origin, message }) =>
        `not found on ${origin} (${message}); list the APIs with svc api list, the revisions of ${target} with svc api revisions ${target}`,
      otherwise: ({ target, message }) => `cannot diff against ${target}: ${message}`,
    },
  },
  'api read': {
    shown: 'svc api revisions, changes',
    scopes: ['read', 'write:apis'],
    words: {
      403: ({ message }) =>
        `not allowed (${message}); a private API needs a token with read or write:apis`,
      // The API, or the revision asked for, or any revision at all (`latest`).
      404: ({ target, origin, message }) =>
        `not found on ${origin} (${message}); list the APIs with svc api list, create this one with svc api create ${target}, list its revisions with svc api revisions ${target}`,
    },
  },
  'api webhooks': {
    shown: 'svc api webhooks …',
    scopes: ['admin:webhooks'],
    words: {
      403: API_FORBIDDEN('admin:webhooks'),
      404: ({ target, origin, message }) =>
        `not found on ${origin}: ${message} (list the APIs with svc api list, the webhooks of ${target} with svc api webhooks list ${target})`,
    },
  },
  'projects list': {
    scopes: ['read', 'write:projects'],
    words: {
      403: ({ message }) =>
        `not allowed (${message}); the token needs the scope read or write:projects`,
      404: ({ target, origin }) => `there is no account '${target}' on ${origin}`,
    },
  },
} satisfies Record<string, HubCommandAdvice>

/** The commands that talk to the hub. */
export type HubCommand = keyof typeof HUB_COMMANDS

/** `write:releases`, `read or write:projects`, `any scope`. */
export function scopeWords(scopes: readonly string[]): string {
  return scopes.includes('any') ? 'any scope' : scopes.join(' or ')
}

function statusOf(error: unknown): HubStatus | undefined {
  if (!(error instanceof HubError)) return undefined
  const { status } = error
  if (status === undefined) return 'unreachable'
  if (status >= 500 && status <= 599) return '5xx'
  return ([401, 403, 404, 409, 413, 429] as const).find((known) => known === status)
}

/** What a failed hub request means to the user of `command`, in one sentence. */
export function hubAdvice(
  command: HubCommand,
  error: unknown,
  context: { readonly origin: string; readonly target?: string; readonly token?: string },
): string {
  const advice: HubCommandAdvice = HUB_COMMANDS[command]
  const status = statusOf(error)
  // The hub only says a malformed token is not a PAT; what is wrong with it helps more.
  const malformed = status === 401 && context.token ? malformedPat(context.token) : undefined
  const failure: HubFailure = {
    origin: context.origin,
    target: context.target ?? context.origin,
    message: malformed
      ? `HTTP 401: ${malformed}`
      : error instanceof Error
        ? error.message
        : String(error),
    scopes: scopeWords(advice.scopes),
  }
  const words =
    (status !== undefined ? (advice.words?.[status] ?? SHARED[status]) : undefined) ??
    advice.words?.otherwise ??
    SHARED.otherwise
  const sentence = words(failure)
  return advice.frame ? advice.frame(sentence, failure, status) : sentence
}

/** The scopes each hub command's token needs, one line each: `svc login --help` shows it. */
export function scopeTable(): string {
  const rows = Object.entries(HUB_COMMANDS).map(([name, advice]: [string, HubCommandAdvice]) => [
    advice.shown ?? `svc ${name}`,
    scopeWords(advice.scopes),
  ])
  const width = Math.max(...rows.map(([shown]) => shown!.length))
  return rows.map(([shown, scopes]) => `  ${shown!.padEnd(width)}  ${scopes}`).join('\n')
}
