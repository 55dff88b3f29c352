import { RecipeError } from '../errors.js'
import { readLogin } from './login-file.js'

/** The hub a command talks to when nothing else says (ARCHITECTURE.md: `{base_url}`). */
export const DEFAULT_ORIGIN = 'http://localhost:8080'

export type TokenSource = 'flag' | 'env' | 'login'
export type OriginSource = 'flag' | 'env' | 'login' | 'default'

export type Credentials = {
  readonly token: string | undefined
  readonly tokenFrom: TokenSource | undefined
  readonly origin: string
  readonly originFrom: OriginSource
}

/**
 * SPEC §4.9 and §5.2: the token is `--token`, then `$SVC_HUB_TOKEN`, then the stored login; the
 * origin is `--origin`, then `$SVC_API_ORIGIN`, then the stored host, but only when the token
 * came from the stored login (a token from elsewhere is never sent to a host it was not stored
 * for), then the default hub. Flags win over the environment, the environment over the login.
 */
export function resolveCredentials(
  flags: { token?: string | undefined; origin?: string | undefined },
  env: NodeJS.ProcessEnv,
): Credentials {
  const login = readLogin(env)
  const [token, tokenFrom]: [string | undefined, TokenSource | undefined] = flags.token
    ? [flags.token, 'flag']
    : env.SVC_HUB_TOKEN
      ? [env.SVC_HUB_TOKEN, 'env']
      : login
        ? [login.token, 'login']
        : [undefined, undefined]
  const [origin, originFrom]: [string, OriginSource] = flags.origin
    ? [flags.origin, 'flag']
    : env.SVC_API_ORIGIN
      ? [env.SVC_API_ORIGIN, 'env']
      : tokenFrom === 'login' && login
        ? [login.host, 'login']
        : [DEFAULT_ORIGIN, 'default']
  const parsed = parseOrigin(origin)
  if (parsed === undefined)
    throw new RecipeError({
      problem: `'${origin}' (from ${originFrom === 'flag' ? '--origin' : originFrom === 'env' ? '$SVC_API_ORIGIN' : 'the login file'}) is not an http(s) origin such as https://hub.example.com.`,
      usage: '--origin <url>, or $SVC_API_ORIGIN',
      example: 'svc whoami --origin https://hub.example.com',
      discover: 'svc whoami --json (where the origin and token come from)',
    })
  return { token, tokenFrom, origin: parsed, originFrom }
}

/** `https://hub.example.com/` → `https://hub.example.com`; undefined for anything but http(s). */
export function parseOrigin(value: string): string | undefined {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return undefined
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined
  if (url.username || url.password || url.search || url.hash) return undefined
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
}
