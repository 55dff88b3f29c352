import { PASSWORD } from './browser.js'

export type PageAnswer = { status: number; headers: Headers; text: string }

/**
 * A browser as plain HTTP: it keeps cookies, reads each page's CSRF token and sends forms the way
 * a browser does (same-site `Origin`, no redirects followed, so tests see the 303s).
 */
export class WebSession {
  readonly #cookies = new Map<string, string>()
  #csrf = ''

  /** `headers` go with every request (a proxy's `X-Forwarded-For`, say). */
  constructor(
    readonly url: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}

  /** The CSRF token of the last page that had a form. */
  get csrf(): string {
    return this.#csrf
  }

  cookie(name: string): string | undefined {
    return this.#cookies.get(name)
  }

  async get(path: string): Promise<PageAnswer> {
    return this.#send(path, { method: 'GET' })
  }

  /**
   * Posts `fields` as a form (multipart when one is a Blob; as pairs when a field repeats, such as
   * checkboxes). The page's CSRF token is added unless `fields` has its own `_csrf`;
   * `origin: null` leaves the Origin header out.
   */
  async post(
    path: string,
    fields: Record<string, string | Blob> | readonly (readonly [string, string])[] = {},
    options: { origin?: string | null } = {},
  ): Promise<PageAnswer> {
    const pairs = Array.isArray(fields) ? fields : Object.entries(fields)
    const all: [string, string | Blob][] = [
      ...(pairs.some(([k]) => k === '_csrf') ? [] : [['_csrf', this.#csrf] as [string, string]]),
      ...pairs,
    ]
    const multipart = all.some(([, v]) => typeof v !== 'string')
    let body: FormData | URLSearchParams
    if (multipart) {
      body = new FormData()
      for (const [k, v] of all) body.append(k, v)
    } else {
      body = new URLSearchParams(all as [string, string][])
    }
    const origin = options.origin === undefined ? new URL(this.url).origin : options.origin
    return this.#send(path, {
      method: 'POST',
      body,
      headers: origin === null ? {} : { origin },
    })
  }

  /** Opens `path` first (for its CSRF token), then posts the form. */
  async submit(
    path: string,
    fields: Record<string, string | Blob>,
    from = path,
  ): Promise<PageAnswer> {
    await this.get(from)
    return this.post(path, fields)
  }

  async signUp(handle: string, password = PASSWORD): Promise<void> {
    const answer = await this.submit('/signup', { handle, password, confirm: password })
    if (answer.status !== 303)
      throw new Error(`sign-up of ${handle}: ${answer.status}\n${answer.text}`)
  }

  /** Creates the private API `<owner>/<slug>` through the new-API form. */
  async createApi(owner: string, slug: string): Promise<void> {
    const answer = await this.submit('/apis/new', {
      owner,
      slug,
      name: slug,
      visibility: 'private',
      sourceUrl: '',
    })
    if (answer.status !== 303)
      throw new Error(`creating ${owner}/${slug}: ${answer.status}\n${answer.text}`)
  }

  async signIn(handle: string, password = PASSWORD): Promise<void> {
    const answer = await this.submit('/signin', { handle, password })
    if (answer.status !== 303)
      throw new Error(`sign-in of ${handle}: ${answer.status}\n${answer.text}`)
  }

  async #send(path: string, init: RequestInit): Promise<PageAnswer> {
    const headers = new Headers({
      ...this.headers,
      ...Object.fromEntries(new Headers(init.headers)),
    })
    if (this.#cookies.size > 0) {
      headers.set('cookie', [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; '))
    }
    const response = await fetch(new URL(path, this.url), { ...init, headers, redirect: 'manual' })
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';')
      const at = pair.indexOf('=')
      const [name, value] = [pair.slice(0, at).trim(), pair.slice(at + 1).trim()]
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a))
      if (expired || value === '') this.#cookies.delete(name)
      else this.#cookies.set(name, value)
    }
    const text = await response.text()
    const token = /name="_csrf" value="([^"]+)"/.exec(text)?.[1]
    if (token) this.#csrf = token
    return { status: response.status, headers: response.headers, text }
  }
}

export type WebPeople = {
  /** Owner of the organisation acme. */
  alice: WebSession
  /** A reader of acme. */
  rita: WebSession
  /** A user who is no member of acme. */
  nora: WebSession
  /** A browser that never signs in. */
  anonymous: WebSession
}

/** Signs up alice, rita and nora on the hub and makes acme (alice owner, rita reader). */
export async function signUpPeople(hub: {
  url: string
  admin(args: readonly string[]): Promise<{ code: number | null; stderr: string }>
}): Promise<WebPeople> {
  const [alice, rita, nora, anonymous] = [1, 2, 3, 4].map(() => new WebSession(hub.url)) as [
    WebSession,
    WebSession,
    WebSession,
    WebSession,
  ]
  await Promise.all([alice.signUp('alice'), rita.signUp('rita'), nora.signUp('nora')])
  for (const args of [
    ['create-org', 'acme', '--owner', 'alice'],
    ['add-member', 'acme', 'rita', '--role', 'reader'],
  ]) {
    const run = await hub.admin(args)
    if (run.code !== 0) throw new Error(`svc-hub admin ${args.join(' ')}: ${run.stderr}`)
  }
  return { alice, rita, nora, anonymous }
}
