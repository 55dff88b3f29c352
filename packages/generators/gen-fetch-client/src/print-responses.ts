import type { ApiModel, HttpOperation, Response, Schema } from '@svc/engine'
import type { NameModel } from '@svc/gen-typescript'
import { resolveResponse } from './components.js'
import { printHeaders } from './print-headers.js'
import { kindRank, mediaKind, preferredMedia } from './media-types.js'
import type { NameData } from './named-types.js'
import { quote } from './quote.js'

/** What an operation's function resolves to, and what the runtime needs to read the responses. */
export type PrintedResponses = {
  /** `ClientResult<200, Pet>`, …, `ClientResult<Exclude<HttpStatus, 200>, unknown>` */
  readonly members: readonly ResultMember[]
  /** The `accept` header, when a response offers JSON beside other media types. */
  readonly accept?: string
  /** The entries of the descriptor's `validate`, when a schema validates a response. */
  readonly validate?: readonly string[]
  /** The entries of the descriptor's `headers`: how to read each response's documented headers. */
  readonly headers?: readonly string[]
}

/** The type arguments of one `ClientResult`: statuses, the data's type, the headers' members. */
export type ResultMember = {
  readonly status: string
  readonly data: string
  readonly headers: readonly string[]
}

/**
 * `ClientResult<200, Pet>`; with an indent, broken over lines: the type arguments at the indent,
 * the closing bracket two spaces before it.
 */
export function printMember(member: ResultMember, indent?: string): string {
  const { status, data, headers } = member
  if (headers.length === 0) return `ClientResult<${status}, ${data}>`
  if (indent === undefined) return `ClientResult<${status}, ${data}, { ${headers.join('; ')} }>`
  const lines = headers.map((header) => `${indent}  ${header}\n`).join('')
  return `ClientResult<\n${indent}${status},\n${indent}${data},\n${indent}{\n${lines}${indent}}\n${indent.slice(2)}>`
}

type Documented = readonly [status: string, response: Response]

/** Statuses whose responses never have a body. */
const NO_BODY = new Set(['204', '205', '304'])

export function printResponses(
  model: ApiModel,
  operation: HttpOperation,
  nameModel: NameModel,
  nameData: NameData,
): PrintedResponses {
  const responses = Object.entries(operation.responses).map(([status, response]): Documented => [
    status,
    resolveResponse(model, response),
  ])
  const explicit = responses.map(([status]) => status).filter(isCode)
  const head = operation.method === 'head'
  // The type arguments after the status: the data's type and the headers' members.
  const data = (status: string, response: Response): Omit<ResultMember, 'status'> => ({
    data: head || NO_BODY.has(status) ? 'undefined' : printData(response, status, nameData),
    headers: printHeaders(model, response, nameModel).members,
  })
  const keyOf = (member: Omit<ResultMember, 'status'>) => JSON.stringify(member)
  // Statuses by the type of their data and headers, in document order; the rest share the
  // default's.
  const groups = new Map<string, [Omit<ResultMember, 'status'>, string[]]>()
  let fallback: Omit<ResultMember, 'status'> = { data: head ? 'undefined' : 'unknown', headers: [] }
  for (const [status, response] of responses) {
    if (status === 'default') fallback = data(status, response)
    else {
      const types = data(status, response)
      const statuses = groups.get(keyOf(types))?.[1] ?? []
      groups.set(keyOf(types), [types, [...statuses, printStatus(status, explicit)]])
    }
  }
  const others = [...groups].filter(([key]) => key !== keyOf(fallback))
  const excluded = others.flatMap(([, [, statuses]]) => statuses)
  const rest = excluded.length === 0 ? 'HttpStatus' : `Exclude<HttpStatus, ${excluded.join(' | ')}>`
  const members: ResultMember[] = [
    ...others.map(([, [types, statuses]]) => ({ status: statuses.join(' | '), ...types })),
    { status: rest, ...fallback },
  ]
  const accept = acceptOf(responses)
  const nameSchema = nameData.schema
  const validate = nameSchema && !head ? printValidate(responses, nameSchema) : undefined
  const headers = byStatus(
    responses.map(([status, response]) => [
      status,
      printHeaders(model, response, nameModel).kinds ?? null,
    ]),
  )
  return {
    members,
    ...(accept !== undefined && { accept }),
    ...(validate !== undefined && { validate }),
    ...(headers !== undefined && { headers }),
  }
}

/** The type of a response's data: its JSON schema's, text, a Blob, or unknown without content. */
function printData(response: Response, status: string, nameData: NameData): string {
  const media = preferredMedia(response.content, kindRank)
  if (media === undefined) return 'unknown'
  switch (mediaKind(media[0])) {
    case 'json':
      return nameData.type(media[1].schema, status)
    case 'text':
      return 'string'
    case 'binary':
      return 'globalThis.Blob'
    case 'any':
      return 'unknown'
  }
}

function isCode(status: string): boolean {
  return /^\d+$/.test(status)
}

/** `200`; `Exclude<HttpStatus<2>, 200 | 201>` for `2XX` beside explicit 2xx statuses. */
function printStatus(status: string, explicit: readonly string[]): string {
  if (isCode(status)) return String(Number(status))
  const digit = status.charAt(0)
  const inClass = explicit.filter((code) => code.charAt(0) === digit).map(Number)
  const range = `HttpStatus<${digit}>`
  return inClass.length === 0 ? range : `Exclude<${range}, ${inClass.join(' | ')}>`
}

/** Asks for JSON when a response could also come as something else. */
function acceptOf(responses: readonly Documented[]): string | undefined {
  const types = new Set(responses.flatMap(([, response]) => Object.keys(response.content)))
  const json = [...types].filter((type) => mediaKind(type) === 'json')
  return json.length > 0 && json.length < types.size ? json.join(', ') : undefined
}

/** The JSON schema of a response, when it has one. */
function jsonSchemaOf(response: Response): Schema | undefined {
  const media = preferredMedia(response.content, kindRank)
  return media && mediaKind(media[0]) === 'json' ? media[1].schema : undefined
}

/** The zod schemas by status key: each JSON response's, a model's or the operation's own. */
function printValidate(
  responses: readonly Documented[],
  nameSchema: NonNullable<NameData['schema']>,
) {
  return byStatus(
    responses.map(([status, response]) => {
      const schema = NO_BODY.has(status) ? undefined : jsonSchemaOf(response)
      return [status, (schema && nameSchema(schema, status)) ?? null]
    }),
  )
}

/**
 * An object of values by status key, as the runtime looks them up (the status, its range, then
 * `default`). A documented status without a value is listed, as null, only when the runtime
 * would otherwise fall back to the value of its range or of `default`.
 */
function byStatus(
  values: readonly [status: string, value: string | null][],
): readonly string[] | undefined {
  const schemas = new Map(values)
  const has = (status: string) => (schemas.get(status) ?? null) !== null
  const entries = [...schemas].filter(([status, schema]) => {
    if (schema !== null) return true
    if (status === 'default') return false
    return (isCode(status) && has(`${status.charAt(0)}XX`)) || has('default')
  })
  if (entries.length === 0) return undefined
  return entries.map(([status, schema]) => `${printKey(status)}: ${schema ?? 'null'}`)
}

function printKey(status: string): string {
  return /^(?:[1-9]\d*|default)$/.test(status) ? status : quote(status)
}
