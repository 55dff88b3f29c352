import type { GenerateContext } from '@svc/engine/generate'

type RuntimeDefinition = {
  readonly name: string
  readonly kind: 'type' | 'value'
  readonly code: string
  /** Other runtime definitions it uses. */
  readonly uses: readonly string[]
}

/**
 * What every generated function shares, defined once per file. It uses nothing but the global
 * `fetch` (or the one passed in), so the generated file needs no package.
 */
const RUNTIME: readonly RuntimeDefinition[] = [
  {
    name: 'GraphqlFetch',
    kind: 'type',
    uses: [],
    code: `/** The \`fetch\` the client calls: the global one, or any function of its shape. */
export type GraphqlFetch = (
  url: string,
  init: { method: 'POST'; headers: Record<string, string>; body: string },
) => Promise<{ readonly ok: boolean; readonly status: number; json(): Promise<unknown> }>`,
  },
  {
    name: 'GraphqlClientOptions',
    kind: 'type',
    uses: ['GraphqlFetch'],
    code: `/** Where operations are sent, and how. */
export type GraphqlClientOptions = {
  /** The GraphQL endpoint: \`https://api.github.com/graphql\`. */
  readonly url: string
  /** Defaults to the global \`fetch\`. */
  readonly fetch?: GraphqlFetch
  /** Sent with every request; they may replace \`content-type\` and \`accept\`. */
  readonly headers?: Readonly<Record<string, string>>
}`,
  },
  {
    name: 'GraphqlDocument',
    kind: 'type',
    uses: [],
    code: `/** An operation's text and name, typed with its result and its variables. */
export type GraphqlDocument<TResult, TVariables> = {
  readonly query: string
  readonly operationName: string
  /** Never set: it carries the types of the result and the variables. */
  readonly __types?: (variables: TVariables) => TResult
}`,
  },
  {
    name: 'GraphqlErrorEntry',
    kind: 'type',
    uses: [],
    code: `/** One entry of a response's \`errors\`. */
export type GraphqlErrorEntry = {
  readonly message: string
  readonly locations?: readonly { readonly line: number; readonly column: number }[]
  readonly path?: readonly (string | number)[]
  readonly extensions?: Readonly<Record<string, unknown>>
}`,
  },
  {
    name: 'GraphqlError',
    kind: 'value',
    uses: ['GraphqlErrorEntry'],
    code: `/** A response with \`errors\`, or a response that is not a GraphQL result at all. */
export class GraphqlError extends Error {
  override readonly name = 'GraphqlError'
  /** The response's \`errors\`; for a response that is not a result, one entry that says why. */
  readonly errors: readonly GraphqlErrorEntry[]
  /** The HTTP status of the response. */
  readonly status: number
  /** The \`data\` that came with the errors (a partial result), if any. */
  readonly data: unknown

  constructor(errors: readonly GraphqlErrorEntry[], status: number, data?: unknown) {
    super(errors.map((error) => error.message).join('; '))
    this.errors = errors
    this.status = status
    this.data = data
  }
}`,
  },
  {
    name: 'request',
    kind: 'value',
    uses: [
      'GraphqlFetch',
      'GraphqlClientOptions',
      'GraphqlDocument',
      'GraphqlError',
      'GraphqlErrorEntry',
    ],
    code: `/**
 * POSTs \`{ query, variables, operationName }\` as JSON and returns the response's \`data\`.
 * @throws GraphqlError when the response has \`errors\`, no \`data\`, or is not JSON
 */
export async function request<TResult, TVariables>(
  document: GraphqlDocument<TResult, TVariables>,
  variables: TVariables,
  options: GraphqlClientOptions,
): Promise<TResult> {
  const send = options.fetch ?? (globalThis as { fetch?: GraphqlFetch }).fetch
  if (send === undefined) throw new Error('No fetch function: pass one as options.fetch')
  const response = await send(options.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json, application/json',
      ...options.headers,
    },
    body: JSON.stringify({
      query: document.query,
      variables,
      operationName: document.operationName,
    }),
  })
  const body: unknown = await response.json().catch(() => undefined)
  const { data, errors } = (typeof body === 'object' && body !== null ? body : {}) as {
    data?: unknown
    errors?: unknown
  }
  if (Array.isArray(errors) && errors.length > 0)
    throw new GraphqlError(errors as GraphqlErrorEntry[], response.status, data ?? undefined)
  if (!response.ok || data === undefined || data === null) {
    const message =
      body === undefined
        ? \`The response (status \${response.status}) is not JSON\`
        : \`The response (status \${response.status}) has no data\`
    throw new GraphqlError([{ message }], response.status)
  }
  return data as TResult
}`,
  },
]

/** Defines the runtime in the file; only the first operation to ask builds it. */
export function defineRuntime(context: GenerateContext, exportPath: string): void {
  for (const definition of RUNTIME) {
    context.define({
      name: definition.name,
      kind: definition.kind,
      exportPath,
      scope: 'generator',
      code: definition.code,
      dependsOn: definition.uses.map((name) => ({
        name,
        exportPath,
        typeOnly: RUNTIME.find((other) => other.name === name)?.kind === 'type',
      })),
    })
  }
}
