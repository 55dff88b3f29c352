import type { ApiModel, HttpOperation, Response, Schema } from '@svc/engine'
import { printType, type NameModel } from '@svc/gen-typescript'
import { resolveResponse } from './components.js'
import { kindRank, mediaKind, preferredMedia } from './media-types.js'
import { quote } from './quote.js'

/** What an operation's function resolves to, and what the runtime needs to read the responses. */
export type PrintedResponses = {
  /** `ClientResult<200, Pet>`, …, `ClientResult<Exclude<HttpStatus, 200>, unknown>` */
  readonly members: readonly string[]
  /** The `accept` header, when a response offers JSON beside other media types. */
  readonly accept?: string
  /** The `validate` of the runtime's operation descriptor, when a schema validates a response. */
  readonly validate?: string
}

/** Names the zod schema of a model; undefined when responses are not validated. */
export type NameSchema = ((refName: string) => string) | undefined

type Documented = readonly [status: string, response: Response]

/** Statuses whose responses never have a body. */
const NO_BODY = new Set(['204', '205', '304'])

export function printResponses(
  model: ApiModel,
  operation: HttpOperation,
  nameModel: NameModel,
  nameSchema: NameSchema,
): PrintedResponses {
  const responses = Object.entries(operation.responses).map(([status, response]): Documented => [
    status,
    resolveResponse(model, response),
  ])
  const explicit = responses.map(([status]) => status).filter(isCode)
  const head = operation.method === 'head'
  const data = (status: string, response: Response) =>
    head || NO_BODY.has(status) ? 'undefined' : printData(response, nameModel)
  // Statuses by the type of their data, in document order; the rest share the default's.
  const groups = new Map<string, string[]>()
  let fallback = head ? 'undefined' : 'unknown'
  for (const [status, response] of responses) {
    if (status === 'default') fallback = data(status, response)
    else {
      const type = data(status, response)
      groups.set(type, [...(groups.get(type) ?? []), printStatus(status, explicit)])
    }
  }
  const others = [...groups].filter(([type]) => type !== fallback)
  const excluded = others.flatMap(([, statuses]) => statuses)
  const rest = excluded.length === 0 ? 'HttpStatus' : `Exclude<HttpStatus, ${excluded.join(' | ')}>`
  const members = [
    ...others.map(([type, statuses]) => `ClientResult<${statuses.join(' | ')}, ${type}>`),
    `ClientResult<${rest}, ${fallback}>`,
  ]
  const accept = acceptOf(responses)
  const validate = nameSchema && !head ? printValidate(responses, nameSchema) : undefined
  return {
    members,
    ...(accept !== undefined && { accept }),
    ...(validate !== undefined && { validate }),
  }
}

/** The type of a response's data: its JSON schema's, text, a Blob, or unknown without content. */
function printData(response: Response, nameModel: NameModel): string {
  const media = preferredMedia(response.content, kindRank)
  if (media === undefined) return 'unknown'
  switch (mediaKind(media[0])) {
    case 'json':
      return printType(media[1].schema, nameModel)
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

/** The JSON schema of a response, when it is a model's. */
function modelOf(response: Response): string | undefined {
  const media = preferredMedia(response.content, kindRank)
  const schema: Schema | undefined = media?.[1].schema
  return media && mediaKind(media[0]) === 'json' && schema?.kind === 'ref'
    ? schema.refName
    : undefined
}

/**
 * The zod schemas by status key. A documented status without one is listed, as null, only when
 * the runtime would otherwise fall back to the schema of its range or of `default`.
 */
function printValidate(responses: readonly Documented[], nameSchema: (refName: string) => string) {
  const schemas = new Map(
    responses.map(([status, response]) => {
      const refName = NO_BODY.has(status) ? undefined : modelOf(response)
      return [status, refName === undefined ? null : nameSchema(refName)]
    }),
  )
  const has = (status: string) => (schemas.get(status) ?? null) !== null
  const entries = [...schemas].filter(([status, schema]) => {
    if (schema !== null) return true
    if (status === 'default') return false
    return (isCode(status) && has(`${status.charAt(0)}XX`)) || has('default')
  })
  if (entries.length === 0) return undefined
  return `{ ${entries.map(([status, schema]) => `${printKey(status)}: ${schema ?? 'null'}`).join(', ')} }`
}

function printKey(status: string): string {
  return /^(?:[1-9]\d*|default)$/.test(status) ? status : quote(status)
}
