import type { ApiModel, HttpOperation, Schema } from '@svc/engine'
import { printType, type NameModel } from '@svc/gen-typescript'
import type { ArgumentMember } from './arguments.js'
import { resolveRequestBody } from './components.js'
import { kindRank, mediaKind, preferredMedia } from './media-types.js'

/** The `body` argument member and how the runtime encodes it. */
export type PrintedBody = {
  readonly member: ArgumentMember
  readonly encoding: 'json' | 'form' | 'multipart' | 'raw'
  /** The `content-type` to send; none for multipart (fetch adds the boundary) or a wildcard. */
  readonly contentType?: string
}

/** What fetch sends as it is: a body of a media type the runtime does not encode. */
const RAW_BODY = 'string | globalThis.Blob | ArrayBuffer | ArrayBufferView'

/** Stands for a file in a multipart body: printType calls the model namer for it. */
const BLOB_MARKER = '\u0000Blob'

export function printBody(
  model: ApiModel,
  operation: HttpOperation,
  nameModel: NameModel,
): PrintedBody | undefined {
  if (operation.requestBody === undefined) return undefined
  const body = resolveRequestBody(model, operation.requestBody)
  const chosen = preferredMedia(body.content, encodingRank)
  if (chosen === undefined) return undefined
  const [mediaType, { schema }] = chosen
  const encoding = encodingOf(mediaType)
  const member = (type: string) => ({ key: 'body', type, required: body.required })
  switch (encoding) {
    case 'json':
    case 'form':
      return { member: member(printType(schema, nameModel)), encoding, contentType: mediaType }
    case 'multipart':
      return { member: member(printMultipart(model, schema, nameModel)), encoding }
    case 'raw': {
      const type = mediaKind(mediaType) === 'text' ? 'string' : RAW_BODY
      const wildcard = mediaType.includes('*')
      return { member: member(type), encoding, ...(!wildcard && { contentType: mediaType }) }
    }
  }
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
  if (resolved.kind !== 'object') return 'globalThis.FormData'
  const properties = Object.fromEntries(
    Object.entries(resolved.properties).map(([name, property]) => [name, asFile(property)]),
  )
  return printType({ ...resolved, properties }, (refName) =>
    refName === BLOB_MARKER ? 'globalThis.Blob' : nameModel(refName),
  )
}

function asFile(schema: Schema): Schema {
  if (schema.kind === 'string' && schema.format === 'binary')
    return { kind: 'ref', $ref: '', refName: BLOB_MARKER, nullable: schema.nullable }
  if (schema.kind === 'array') return { ...schema, items: asFile(schema.items) }
  return schema
}
