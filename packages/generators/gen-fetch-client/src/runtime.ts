import type { GenerateContext } from '@svc/engine/generate'
import { defaultBaseUrl } from './base-url.js'
import { quote } from './quote.js'
import { printApplyAuth, printClientAuth, securitySchemes } from './security.js'
import { documentServers, printServerUrl, printServerVariables } from './servers.js'

/** The names the runtime declares in the client's file, beside the operations' functions. */
export const RUNTIME_TYPES = [
  'ClientOptions',
  'RequestOptions',
  'ClientResult',
  'HttpStatus',
  'HttpDigit',
  'ClientServerVariables',
  'ClientMiddleware',
  'ClientAuth',
]
export const RUNTIME_VALUES = ['sendRequest', 'serverUrl']

/**
 * Global types the generated code names unqualified: a model imported under one of these names
 * would change what they mean in the client's file.
 */
export const GLOBAL_TYPES = [
  'Array',
  'ArrayBuffer',
  'ArrayBufferView',
  'Exclude',
  'Promise',
  'Readonly',
  'Record',
]

const OPERATION_TYPES = ['ClientOptions', 'RequestOptions', 'ClientResult', 'HttpStatus']

type Dependency = { name: string; exportPath: string; typeOnly?: boolean }

/**
 * Defines the helpers every operation's function uses, once per run (`scope: 'generator'`), and
 * returns the dependencies a function has on them.
 */
export function defineRuntime(context: GenerateContext, exportPath: string): Dependency[] {
  const define = (name: string, kind: 'type' | 'value', code: () => string) =>
    context.define({ name, kind, exportPath, scope: 'generator', build: () => ({ code: code() }) })
  const servers = documentServers(context.model)
  define('ClientOptions', 'type', () =>
    clientOptions(
      defaultBaseUrl(context.model),
      servers.length > 0,
      Object.keys(securitySchemes(context.model)).length > 0,
    ),
  )
  define('ClientMiddleware', 'type', () => MIDDLEWARE)
  define('RequestOptions', 'type', () => REQUEST_OPTIONS)
  define('ClientResult', 'type', () => CLIENT_RESULT)
  define('HttpStatus', 'type', () => HTTP_STATUS)
  const schemes = securitySchemes(context.model)
  const secured = Object.keys(schemes).length > 0
  if (secured) define('ClientAuth', 'type', () => printClientAuth(schemes))
  define('sendRequest', 'value', () =>
    sendRequest(defaultBaseUrl(context.model), secured ? printApplyAuth(schemes) : undefined),
  )
  if (servers.length > 0) {
    define('ClientServerVariables', 'type', () => printServerVariables(servers))
    define('serverUrl', 'value', () => printServerUrl(servers))
  }
  // The functions depend on what they call; the server helpers are there for the caller.
  return [
    ...OPERATION_TYPES.map((name) => ({ name, exportPath, typeOnly: true })),
    { name: 'sendRequest', exportPath },
  ]
}

function clientOptions(baseUrl: string | undefined, hasServers: boolean, secured: boolean): string {
  const auth = secured
    ? `
  /** Credentials for the operations that ask for them, by security scheme. */
  readonly auth?: ClientAuth`
    : ''
  const servers = hasServers ? ' (`serverUrl()` gives the servers)' : ''
  const fallback =
    baseUrl === undefined
      ? 'without one, paths stay relative (to the page, in a browser)'
      : `\`${baseUrl.replace(/\*\//g, '*\\/')}\` when unset`
  return `/** Where the generated functions send their requests, and how. */
export type ClientOptions = {
  /**
   * The URL each operation's path is appended to${servers};
   * ${fallback}.
   */
  readonly baseUrl?: string
  /** Sends the requests instead of the global \`fetch\`: a test double, retries, logging. */
  readonly fetch?: typeof globalThis.fetch
  /** Sent with every request; the headers an operation's arguments set win. */
  readonly headers?: Readonly<Record<string, string>>
  /**
   * Sees each request before it is sent and each response before it is read, in order for
   * requests and in reverse order for responses. Outside a browser, \`baseUrl\` must then be
   * absolute: the request is a \`Request\`, which has no page to resolve a relative URL against.
   */
  readonly middleware?: readonly ClientMiddleware[]${auth}
}`
}

const MIDDLEWARE = `/**
 * A hook on every request and response: authentication, logging, retries, errors. Each returns
 * the request or response to go on with, or nothing to go on with the one it was given.
 */
export type ClientMiddleware = {
  readonly onRequest?: (context: {
    readonly request: globalThis.Request
    /** The operation as the document names it: \`{ method: 'GET', path: '/pets/{petId}' }\`. */
    readonly operation: { readonly method: string; readonly path: string }
  }) => globalThis.Request | void | Promise<globalThis.Request | void>
  readonly onResponse?: (context: {
    readonly request: globalThis.Request
    readonly response: globalThis.Response
    readonly operation: { readonly method: string; readonly path: string }
  }) => globalThis.Response | void | Promise<globalThis.Response | void>
}`

const REQUEST_OPTIONS = `/** The options of one call: the client's, and a signal that aborts the call. */
export type RequestOptions = ClientOptions & { readonly signal?: globalThis.AbortSignal }`

const CLIENT_RESULT = `/** One outcome of an operation: its status, its body and the response they came in. */
export type ClientResult<Status extends number, Data, Headers extends object = {}> = {
  readonly status: Status
  /** Parsed JSON, text for text and XML, a Blob for anything else; undefined without a body. */
  readonly data: Data
  /**
   * The documented headers present, by their documented name: numbers, booleans and lists of
   * them parsed. \`response.headers\` has them all as sent.
   */
  readonly headers: Headers
  readonly response: globalThis.Response
}`

const HTTP_STATUS = `/** A decimal digit: the second and third of a status code. */
type HttpDigit = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9

/** The status codes of one class (\`HttpStatus<2>\` is 200 to 299); by default 100 to 599. */
export type HttpStatus<Class extends 1 | 2 | 3 | 4 | 5 = 1 | 2 | 3 | 4 | 5> =
  \`\${Class}\${HttpDigit}\${HttpDigit}\` extends infer Code
    ? Code extends \`\${infer Status extends number}\`
      ? Status
      : never
    : never`

function sendRequest(baseUrl: string | undefined, applyAuth: string | undefined): string {
  return `/** Sends one operation's request and reads its response: what every function here calls. */
async function sendRequest<Result extends ClientResult<number, unknown>>(
  operation: {
    readonly method: string
    readonly path: string
    /** The server of an operation that has its own. */
    readonly server?: string
    /** Parameters not serialized the default way of their location, by location and name. */
    readonly styles?: Readonly<
      Record<
        string,
        Readonly<
          Record<
            string,
            { readonly style?: string; readonly explode?: boolean; readonly json?: boolean }
          >
        >
      >
    >
    readonly body?: 'json' | 'form' | 'multipart' | 'raw'
    /** Form members not sent the default way, and multipart parts of their own media type. */
    readonly encoding?: Readonly<
      Record<
        string,
        { readonly style?: string; readonly explode?: boolean; readonly contentType?: string }
      >
    >
    readonly contentType?: string
    readonly accept?: string
    /** The scheme names of each security requirement, in the document's order. */
    readonly security?: ReadonlyArray<readonly string[]>
    /** How to read the documented headers, by status, \`2XX\` or \`default\`; null for none. */
    readonly headers?: Readonly<Record<string, Readonly<Record<string, string>> | null>>
    /** A schema by status, \`2XX\` or \`default\`, to parse JSON data with; null to leave it. */
    readonly validate?: Readonly<Record<string, { parse(data: unknown): unknown } | null>>
    /** A schema the JSON body must match before the request is sent. */
    readonly validateBody?: { parse(data: unknown): unknown }
  },
  args: {
    readonly path?: Readonly<Record<string, unknown>>
    readonly query?: Readonly<Record<string, unknown>>
    readonly headers?: Readonly<Record<string, unknown>>
    readonly cookies?: Readonly<Record<string, unknown>>
    readonly body?: unknown
  } = {},
  options: RequestOptions = {},
): Promise<Result> {
  // One parameter as its OpenAPI style writes it: \`name=value\` pairs in a query or a cookie.
  const serialize = (
    location: string,
    name: string,
    value: unknown,
    encode: (text: string) => string,
    given = operation.styles?.[location]?.[name],
  ) => {
    const form = location === 'query' || location === 'cookie'
    const style = given?.style ?? (form ? 'form' : 'simple')
    const explode = given?.explode ?? style === 'form'
    const text = (item: unknown) =>
      encode(
        given?.json || (typeof item === 'object' && item !== null)
          ? JSON.stringify(item)
          : String(item),
      )
    const key = encode(name)
    const members: [string | undefined, string][] =
      given?.json || typeof value !== 'object' || value === null
        ? [[undefined, text(value)]]
        : Array.isArray(value)
          ? value.map((item): [undefined, string] => [undefined, text(item)])
          : Object.entries(value).map(([member, item]): [string, string] => [
              encode(member),
              text(item),
            ])
    // Nested members get a bracket each, as Stripe reads them: \`card[address][city]=…\`, and
    // the items of an array of objects their index: \`items[0][price]=…\`.
    const deep = (prefix: string, item: unknown): string[] =>
      typeof item !== 'object' || item === null
        ? [\`\${prefix}=\${encode(String(item))}\`]
        : Array.isArray(item)
          ? item.flatMap((each, index) => {
              const nested = typeof each === 'object' && each !== null
              return deep(\`\${prefix}[\${nested ? index : ''}]\`, each)
            })
          : Object.entries(item)
              .filter((entry) => entry[1] !== undefined)
              .flatMap(([member, each]) => deep(\`\${prefix}[\${encode(member)}]\`, each))
    if (style === 'deepObject')
      return typeof value === 'object' && value !== null
        ? deep(key, value)
        : [\`\${key}=\${text(value)}\`]
    if (explode && (style === 'form' || style === 'matrix')) {
      const pairs = members.map(
        ([member, item]) => \`\${style === 'matrix' ? ';' : ''}\${member ?? key}=\${item}\`,
      )
      return style === 'matrix' ? [pairs.join('')] : pairs
    }
    const separator =
      style === 'spaceDelimited'
        ? '%20'
        : style === 'pipeDelimited'
          ? '|'
          : style === 'label' && explode
            ? '.'
            : ','
    const joined = members
      .flatMap(([member, item]) =>
        member === undefined ? [item] : explode ? [\`\${member}=\${item}\`] : [member, item],
      )
      .join(separator)
    if (style === 'label') return [\`.\${joined}\`]
    if (style === 'matrix') return [\`;\${key}=\${joined}\`]
    return form ? [\`\${key}=\${joined}\`] : [joined]
  }
  const present = (group: Readonly<Record<string, unknown>> = {}) =>
    Object.entries(group).filter((entry) => entry[1] !== undefined && entry[1] !== null)
  const path = operation.path.replace(/\\{([^{}]+)\\}/g, (_, name: string) => {
    const value = args.path?.[name]
    // Sent as it is, the URL would name another resource: \`/pets/undefined\`, \`/pets/\`.
    if (value === undefined || value === null || value === '')
      throw new TypeError(
        \`\${operation.method} \${operation.path}: the path parameter '\${name}' is missing\`,
      )
    return serialize('path', name, value, encodeURIComponent).join('')
  })
${applyAuth ?? ''}  const query = [
    ...present(args.query).flatMap(([name, value]) =>
      serialize('query', name, value, encodeURIComponent),
    ),${applyAuth === undefined ? '' : '\n    ...auth.query,'}
  ].join('&')
  const baseUrl = options.baseUrl ?? operation.server ?? ${baseUrl === undefined ? "''" : quote(baseUrl)}
  const url = \`\${baseUrl.replace(/\\/+$/, '')}\${path}\${query === '' ? '' : \`?\${query}\`}\`
  const headers = new Headers(options.headers)${applyAuth === undefined ? '' : '\n  for (const [name, value] of auth.header) headers.set(name, value)'}
  for (const [name, value] of present(args.headers))
    headers.set(name, serialize('header', name, value, (text) => text).join(''))
  const cookies = [
    ...present(args.cookies).flatMap(([name, value]) =>
      serialize('cookie', name, value, encodeURIComponent),
    ),${applyAuth === undefined ? '' : '\n    ...auth.cookie,'}
  ]
  const cookie = headers.get('cookie')
  if (cookies.length > 0)
    headers.set('cookie', (cookie === null ? cookies : [cookie, ...cookies]).join('; '))
  if (operation.accept !== undefined && !headers.has('accept'))
    headers.set('accept', operation.accept)
  let body = args.body
  if (body !== undefined) {
    // A body the document refuses rejects the call with zod's error, and nothing is sent. The
    // body sent is the one given: parsing checks it, and changes nothing.
    operation.validateBody?.parse(body)
    // Members of a form: arrays repeat their name, objects are sent as JSON unless encoded.
    const fields = (value: unknown) =>
      present(value as Record<string, unknown>).flatMap(([name, item]) =>
        (Array.isArray(item) ? item : [item]).map((member): [string, unknown] => [name, member]),
      )
    const text = (item: unknown) =>
      typeof item === 'object' && item !== null ? JSON.stringify(item) : String(item)
    const encoding = operation.encoding ?? {}
    const plain =
      typeof body === 'object' &&
      body !== null &&
      !(body instanceof FormData) &&
      !(body instanceof URLSearchParams)
    if (operation.body === 'json') body = JSON.stringify(body)
    if (operation.body === 'form' && plain)
      body = present(body as Record<string, unknown>)
        .flatMap(([name, item]) =>
          encoding[name] === undefined
            ? fields({ [name]: item }).map(([key, member]) =>
                new URLSearchParams([[key, text(member)]]).toString(),
              )
            : serialize('query', name, item, encodeURIComponent, encoding[name]),
        )
        .join('&')
    if (operation.body === 'multipart' && plain) {
      const form = new FormData()
      for (const [name, item] of fields(body)) {
        const type = encoding[name]?.contentType
        if (item instanceof Blob) form.append(name, item)
        // A part of its own media type goes as a Blob, the only part FormData gives a type to.
        else if (type !== undefined)
          form.append(
            name,
            new Blob([/[/+]json\\b/i.test(type) ? JSON.stringify(item) : text(item)], { type }),
          )
        else form.append(name, text(item))
      }
      body = form
    }
    // A multipart body's type carries its boundary, which only fetch knows.
    if (
      operation.contentType !== undefined &&
      operation.body !== 'multipart' &&
      !headers.has('content-type')
    )
      headers.set('content-type', operation.contentType)
  }
  const init: globalThis.RequestInit = {
    method: operation.method,
    headers,
    body: (body ?? null) as Exclude<globalThis.RequestInit['body'], undefined>,
    signal: options.signal ?? null,
  }
  const send = options.fetch ?? globalThis.fetch
  const middleware = options.middleware ?? []
  let response: globalThis.Response
  if (middleware.length === 0) response = await send(url, init)
  else {
    const described = { method: operation.method, path: operation.path }
    let request = new Request(url, init)
    for (const each of middleware)
      request = (await each.onRequest?.({ request, operation: described })) ?? request
    response = await send(request)
    for (const each of [...middleware].reverse())
      response =
        (await each.onResponse?.({ request, response, operation: described })) ?? response
  }
  let data: unknown
  const type = response.headers.get('content-type') ?? ''
  // Whether the data is parsed JSON, the only data a schema describes.
  let json = false
  if (operation.method === 'HEAD' || [204, 205, 304].includes(response.status)) data = undefined
  else if (/[/+]json\\b/i.test(type)) {
    const text = await response.text()
    try {
      data = text === '' ? undefined : JSON.parse(text)
      json = text !== ''
    } catch {
      // Not JSON after all (a proxy's error page sent as JSON): the text, as it came.
      data = text
    }
  } else if (type === '' || /^text\\/|[/+]xml\\b|x-www-form-urlencoded/i.test(type)) {
    const text = await response.text()
    data = type === '' && text === '' ? undefined : text
  } else data = await response.blob()
  const schemas = operation.validate ?? {}
  const range = \`\${Math.floor(response.status / 100)}XX\`
  const key = [String(response.status), range, 'default'].find((candidate) => candidate in schemas)
  const schema = key === undefined ? undefined : schemas[key]
  // A body of another type (an HTML error page), or none, is returned unchecked.
  if (schema && json) data = schema.parse(data)
  const documented = operation.headers ?? {}
  const headersKey = [String(response.status), range, 'default'].find(
    (candidate) => candidate in documented,
  )
  const read = (text: string, kind: string) =>
    kind.startsWith('number') ? Number(text) : kind.startsWith('boolean') ? text === 'true' : text
  const received: Record<string, unknown> = {}
  for (const [name, kind] of Object.entries(
    (headersKey === undefined ? undefined : documented[headersKey]) ?? {},
  )) {
    const text = response.headers.get(name)
    if (text !== null)
      received[name] = kind.endsWith('[]')
        ? text.split(',').map((item) => read(item.trim(), kind))
        : read(text, kind)
  }
  return { status: response.status, data, headers: received, response } as Result
}`
}
