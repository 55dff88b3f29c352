import type { ApiModel, Encoding, HttpOperation, Schema } from '@svc/engine'
import { propertyKey, schemaView } from '@svc/engine/generate'
import { printType, type NameModel } from '@svc/gen-typescript'
import type { ArgumentMember } from './arguments.js'
import { resolveRequestBody } from './components.js'
import { kindRank, mediaKind, preferredMedia } from './media-types.js'
import type { NameData } from './named-types.js'
import { quote } from './quote.js'

/** The `body` argument member and how the runtime encodes it. */
export type PrintedBody = {
  readonly member: ArgumentMember
  readonly encoding: 'json' | 'form' | 'multipart' | 'raw'
  /** The `content-type` to send; none for multipart (fetch adds the boundary) or a wildcard. */
  readonly contentType?: string
  /** The entries of the descriptor's `encoding`, for the members not sent the default way. */
  readonly styles?: readonly string[]
  /** The zod schema a JSON body is checked with before it is sent, when validated. */
  readonly schema?: string
}

/** What fetch sends as it is: a body of a media type the runtime does not encode. */
const RAW_BODY = 'string | globalThis.Blob | ArrayBuffer | ArrayBufferView'

/** Stands for a file in a multipart body: printType calls the model namer for it. */
const BLOB_MARKER = '\u0000Blob'

/**
 * The body to send, typed by the write view of its schema and of the models it refers to: no
 * `readOnly` property, `writeOnly` ones as declared (`AccountWritable` rather than `Account`).
 */
export function printBody(
  model: ApiModel,
  operation: HttpOperation,
  namer: NameModel,
  nameData: NameData,
): PrintedBody | undefined {
  if (operation.requestBody === undefined) return undefined
  const body = resolveRequestBody(model, operation.requestBody)
  const chosen = preferredMedia(body.content, encodingRank)
  if (chosen === undefined) return undefined
  const [mediaType, { schema: declared, encoding: given }] = chosen
  const schema = schemaView(model, declared, 'write')
  const nameModel: NameModel = (refName) => namer(refName, 'write')
  const encoding = encodingOf(mediaType)
  const styles = printEncoding(encoding, given)
  const member = (type: string) => ({ key: 'body', type, required: body.required })
  switch (encoding) {
    case 'json': {
      const type = nameData.type(schema, 'body')
      const check = nameData.schema?.(schema, 'body')
      return {
        member: member(type),
        encoding,
        contentType: mediaType,
        ...(check && { schema: check }),
      }
    }
    case 'form': {
      const type = nameData.type(schema, 'body')
      return { member: member(type), encoding, contentType: mediaType, ...(styles && { styles }) }
    }
    case 'multipart': {
      const type = printMultipart(model, schema, nameModel)
      return { member: member(type), encoding, ...(styles && { styles }) }
    }
    case 'raw': {
      const type = mediaKind(mediaType) === 'text' ? 'string' : RAW_BODY
      const wildcard = mediaType.includes('*')
      return { member: member(type), encoding, ...(!wildcard && { contentType: mediaType }) }
    }
  }
}

/**
 * A form's members with a `style` or `explode`, and a multipart body's parts with one media type
 * (a list or a wildcard leaves the choice to the Blob given).
 */
function printEncoding(
  encoding: PrintedBody['encoding'],
  given: Readonly<Record<string, Encoding>> = {},
): readonly string[] | undefined {
  const entries = Object.entries(given).flatMap(([name, each]) => {
    const fields =
      encoding === 'form'
        ? [
            ...(each.style === undefined ? [] : [`style: ${quote(each.style)}`]),
            ...(each.explode === undefined ? [] : [`explode: ${each.explode}`]),
          ]
        : encoding === 'multipart' &&
            each.contentType !== undefined &&
            /^[^,*]+$/.test(each.contentType)
          ? [`contentType: ${quote(each.contentType.trim())}`]
          : []
    return fields.length === 0 ? [] : [`${propertyKey(name)}: { ${fields.join(', ')} }`]
  })
  return entries.length === 0 ? undefined : entries
}

function encodingOf(mediaType: string): PrintedBody['encoding'] {
  if (mediaKind(mediaType) === 'json') return 'json'
  if (/^application\/x-www-form-urlencoded\b/i.test(mediaType)) return 'form'
  if (/^multipart\//i.test(mediaType)) return 'multipart'
  return 'raw'
}

/** JSON first, then the forms, then text, then anything. */
function encodingRank(mediaType: string): number {
  const encoding = encodingOf(mediaType)
  if (encoding === 'raw') return 3 + kindRank(mediaType)
  return { json: 0, form: 1, multipart: 2 }[encoding]
}

/** The object a multipart body is built from: its binary properties are files (`Blob`s). */
function printMultipart(model: ApiModel, schema: Schema, nameModel: NameModel): string {
  const resolved =
    schema.kind === 'ref' && Object.hasOwn(model.components.schemas, schema.refName)
      ? model.components.schemas[schema.refName]!
      : schema
  const writable = schemaView(model, resolved, 'write')
  if (writable.kind !== 'object') return 'globalThis.FormData'
  const properties = Object.fromEntries(
    Object.entries(writable.properties).map(([name, property]) => [name, asFile(property)]),
  )
  return printType({ ...writable, properties }, (refName) =>
    refName === BLOB_MARKER ? 'globalThis.Blob' : nameModel(refName),
  )
}

function asFile(schema: Schema): Schema {
  if (schema.kind === 'string' && schema.format === 'binary')
    return { kind: 'ref', $ref: '', refName: BLOB_MARKER, nullable: schema.nullable }
  if (schema.kind === 'array') return { ...schema, items: asFile(schema.items) }
  return schema
}
