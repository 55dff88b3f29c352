import { createHash } from 'node:crypto'
import type { Readable } from 'node:stream'
import busboy from 'busboy'
import { ApiError } from '../errors/index.js'
import { bodyFailure, discardRest, nodeStream } from '../http/request-body.js'
import type { StoredFile } from '../store/stacks-repo.js'
import { checkUploadPath } from './safe-path.js'

export type UploadLimits = {
  /** Largest `bundle` part; 0 when the upload has none. */
  readonly bundleBytes: number
  readonly fileBytes: number
  /** Largest sum of all `files` parts. */
  readonly sourceBytes: number
  readonly files: number
}

export type UploadedFile = { readonly path: string; readonly data: Buffer; readonly sha256: string }

/** The row the store keeps for an uploaded file (its bytes go to the blobs). */
export function storedFile(file: UploadedFile): StoredFile {
  return { path: file.path, size: file.data.byteLength, sha256: file.sha256 }
}

export type Upload = {
  readonly fields: ReadonlyMap<string, string>
  readonly bundle: UploadedFile | undefined
  readonly files: readonly UploadedFile[]
}

export type UploadShape = {
  /** Text parts, each allowed once. */
  readonly fields: readonly string[]
  /** Whether one `bundle` file part is allowed. */
  readonly bundle: boolean
  readonly limits: UploadLimits
}

const FIELD_BYTES = 1024
/** Room for part headers and boundaries on top of the content limits. */
const FRAMING_BYTES_PER_PART = 1024

/**
 * Reads a `multipart/form-data` upload of named text fields, an optional `bundle` and `files`
 * parts (one per file; the part's filename is the file's relative path), in any order. Every
 * limit is enforced while the body streams in, so an oversized upload is refused after at most
 * one part's limit of bytes, and memory stays bounded by the limits.
 */
export async function readUpload(request: Request, shape: UploadShape): Promise<Upload> {
  const contentType = request.headers.get('content-type') ?? ''
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    throw new ApiError(
      'unsupported_media_type',
      'Send the upload as multipart/form-data (one part per field and file).',
    )
  }
  const { limits } = shape
  const maxBody =
    limits.bundleBytes +
    limits.sourceBytes +
    FIELD_BYTES * shape.fields.length +
    FRAMING_BYTES_PER_PART * (limits.files + shape.fields.length + 2)
  if (!request.body) throw new ApiError('malformed_request', 'The request has no body.')
  const declared = Number(request.headers.get('content-length') ?? NaN)
  if (declared > maxBody) {
    const error = tooLarge(`The request body (${declared} bytes)`, maxBody)
    error.closeConnection = !(await discardRest(nodeStream(request.body), declared))
    throw error
  }

  let parser: busboy.Busboy
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      preservePath: true,
      defParamCharset: 'utf8',
      limits: {
        fieldSize: FIELD_BYTES,
        fileSize: Math.max(limits.bundleBytes, limits.fileBytes) + 1,
        parts: limits.files + shape.fields.length + 2,
        headerPairs: 16,
      },
    })
  } catch (error) {
    throw malformed((error as Error).message)
  }
  return collect(nodeStream(request.body), parser, shape, maxBody)
}

function collect(
  source: Readable,
  parser: busboy.Busboy,
  shape: UploadShape,
  maxBody: number,
): Promise<Upload> {
  const { limits } = shape
  const fields = new Map<string, string>()
  const files: UploadedFile[] = []
  const paths = new Set<string>()
  let bundle: UploadedFile | undefined
  // Parts are counted when they start: a part's data may end after the next part has begun.
  let bundleSeen = false
  let sourceBytes = 0
  let bodyBytes = 0

  return new Promise<Upload>((resolve, reject) => {
    let settled = false
    // Stop parsing at once; read (and drop) a bounded rest of the body so that the client can
    // read the answer, and end the connection when the body is larger than that.
    const fail = (error: ApiError) => {
      if (settled) return
      settled = true
      source.unpipe(parser)
      parser.removeAllListeners('close')
      parser.on('error', () => {})
      void discardRest(source).then((ended) => {
        error.closeConnection = !ended
        reject(error)
      })
    }

    source.on('data', (chunk: Buffer) => {
      bodyBytes += chunk.byteLength
      if (bodyBytes > maxBody) fail(tooLarge('The request body', maxBody))
    })
    source.on('error', (cause) => fail(bodyFailure(cause)))

    parser.on('field', (name, value, info) => {
      if (name === 'files' || (name === 'bundle' && shape.bundle)) {
        return fail(
          new ApiError('invalid_request', `The '${name}' part must be a file, with a filename.`, {
            part: name,
          }),
        )
      }
      if (!shape.fields.includes(name)) return fail(unknownPart(name, shape))
      if (fields.has(name)) return fail(duplicatePart(name))
      if (info.valueTruncated) {
        return fail(
          new ApiError(
            'payload_too_large',
            `The '${name}' part is longer than ${FIELD_BYTES} bytes.`,
            { part: name, limit: FIELD_BYTES },
          ),
        )
      }
      fields.set(name, value)
    })

    parser.on('file', (name, stream, info) => {
      // busboy fails the part being read as well as itself (a body that ends inside a part):
      // unheard, that error would end the process.
      stream.on('error', (error) => fail(malformed(error.message)))
      const refuse = (error: ApiError) => {
        stream.resume()
        fail(error)
      }
      const isBundle = name === 'bundle' && shape.bundle
      if (!isBundle && name !== 'files') {
        return refuse(shape.fields.includes(name) ? textOnly(name) : unknownPart(name, shape))
      }
      if (isBundle && bundleSeen) return refuse(duplicatePart('bundle'))
      if (isBundle) bundleSeen = true
      let path = 'server.js'
      if (!isBundle) {
        const raw = info.filename ?? ''
        const checked = checkUploadPath(raw)
        if (!checked.ok) {
          return refuse(
            new ApiError(
              'unsafe_path',
              `Refused file path ${JSON.stringify(raw)}: ${checked.reason}.`,
              {
                path: raw,
                reason: checked.reason,
              },
            ),
          )
        }
        path = checked.path
        if (paths.has(path)) {
          return refuse(
            new ApiError('duplicate_path', `The file '${path}' is in the upload twice.`, { path }),
          )
        }
        paths.add(path)
        if (paths.size > limits.files) return refuse(tooManyFiles(limits.files))
      }
      const limit = isBundle ? limits.bundleBytes : limits.fileBytes
      const chunks: Buffer[] = []
      const hash = createHash('sha256')
      let size = 0
      stream.on('data', (chunk: Buffer) => {
        if (settled) return
        size += chunk.byteLength
        if (size > limit) {
          return fail(tooLarge(isBundle ? 'The bundle' : `The file '${path}'`, limit))
        }
        if (!isBundle) {
          sourceBytes += chunk.byteLength
          if (sourceBytes > limits.sourceBytes)
            return fail(tooLarge('The source files together', limits.sourceBytes))
        }
        chunks.push(chunk)
        hash.update(chunk)
      })
      stream.on('end', () => {
        if (settled) return
        const file = { path, data: Buffer.concat(chunks, size), sha256: hash.digest('hex') }
        if (isBundle) bundle = file
        else files.push(file)
      })
    })

    parser.on('partsLimit', () => fail(tooManyFiles(limits.files)))
    parser.on('error', (error) => fail(malformed((error as Error).message)))
    parser.on('close', () => {
      if (settled) return
      settled = true
      resolve({ fields, bundle, files })
    })
    source.pipe(parser)
  })
}

function malformed(reason: string): ApiError {
  return new ApiError('malformed_request', `Malformed multipart body: ${reason}.`)
}

function tooLarge(what: string, limit: number): ApiError {
  return new ApiError('payload_too_large', `${what}: more than the limit of ${limit} bytes.`, {
    limit,
  })
}

function tooManyFiles(limit: number): ApiError {
  return new ApiError('payload_too_large', `The upload has more than ${limit} files.`, { limit })
}

function duplicatePart(name: string): ApiError {
  return new ApiError('duplicate_part', `The '${name}' part appears more than once.`, {
    part: name,
  })
}

function textOnly(name: string): ApiError {
  return new ApiError('invalid_request', `The '${name}' part must be a text field, not a file.`, {
    part: name,
  })
}

function unknownPart(name: string, shape: UploadShape): ApiError {
  const known = [...shape.fields, ...(shape.bundle ? ['bundle'] : []), 'files']
  return new ApiError(
    'invalid_request',
    `Unknown part '${name}'; the parts are ${known.map((k) => `'${k}'`).join(', ')}.`,
    { part: name },
  )
}
