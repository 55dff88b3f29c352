import { readFileSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { DEFAULT_LIMITS, DocumentError } from '@svc/engine'
import { RecipeError, type Recipe } from '../errors.js'

/** An API description as the CLI obtained it. */
export type LoadedSource = {
  readonly text: string
  /** Absolute file path, URL, or `<stdin>`. */
  readonly origin: string
  /** Set when the source is a local file, so relative `$ref`s can be followed. */
  readonly isFile: boolean
}

/** Raised when a named file does not exist: an invalid argument rather than an unreadable document. */
export class MissingFileError extends Error {
  override readonly name = 'MissingFileError'
  constructor(readonly path: string) {
    super(`No such file: ${path}`)
  }
}

/** Where a relative path and `-` lead, and the most a document may weigh. */
export type SourceOptions = {
  readonly cwd: string
  readonly stdin: NodeJS.ReadableStream
  readonly maxBytes?: number | undefined
}

const URL_TIMEOUT_MS = 30_000

/** Reads a file path, an http(s) URL, or `-` (standard input), refusing anything over the size limit. */
export async function readSource(input: string, options: SourceOptions): Promise<LoadedSource> {
  const maxBytes = options.maxBytes ?? DEFAULT_LIMITS.maxBytes
  if (input === '-') {
    return {
      text: await readStream(options.stdin, maxBytes),
      origin: '<stdin>',
      isFile: false,
    }
  }
  if (/^https?:\/\//i.test(input))
    return { text: await fetchText(input, maxBytes), origin: input, isFile: false }

  const path = resolve(options.cwd, input)
  try {
    checkFile(input, path, maxBytes)
    // Decoded apart: Node 20's readFileSync(path, 'utf8') reads in chunks, a third slower on 13 MB.
    return { text: readFileSync(path).toString('utf8'), origin: path, isFile: true }
  } catch (error) {
    throw fileError(input, error)
  }
}

/** A local file checked as `readSource` checks it, but not read: someone else reads it. */
export type LocatedFile = {
  /** The absolute path. */
  readonly origin: string
  readonly isFile: true
  /** The path as the user gave it, for the message of a read that fails. */
  readonly input: string
}

/** What `readSource` does to a local file but the read: the same refusals, the same errors. */
export function locateFile(input: string, options: SourceOptions): LocatedFile {
  const path = resolve(options.cwd, input)
  try {
    checkFile(input, path, options.maxBytes ?? DEFAULT_LIMITS.maxBytes)
    return { origin: path, isFile: true, input }
  } catch (error) {
    throw fileError(input, error)
  }
}

function checkFile(input: string, path: string, maxBytes: number): void {
  const stat = statSync(path)
  if (stat.isDirectory())
    throw new DocumentError('unreadable', `${input} is a directory, not a document.`)
  if (stat.size > maxBytes) throw tooLarge(stat.size, maxBytes)
}

/** Why a local file could not be read, as the error `readSource` throws. */
function fileError(input: string, error: unknown): Error {
  if (error instanceof DocumentError) return error
  const code = (error as NodeJS.ErrnoException).code
  // `file.yaml/x` (ENOTDIR) names a file that cannot exist, like a plain missing path.
  if (code === 'ENOENT' || code === 'ENOTDIR') return new MissingFileError(input)
  const reason = code ?? (error as Error).message
  return new DocumentError('unreadable', `Cannot read ${input}: ${reason}.`, { cause: error })
}

/** `atLeast`: a stream was cut off at the limit, so its full size is unknown. */
function tooLarge(size: number, maxBytes: number, atLeast = false): DocumentError {
  const limit = formatBytes(maxBytes)
  const measured = atLeast
    ? `larger than the limit of ${limit}`
    : `${formatBytes(size)}; the limit is ${limit}`
  return new DocumentError(
    'too_large',
    `The document is ${measured} (raise the limit with --max-bytes).`,
  )
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`
}

async function readStream(stream: NodeJS.ReadableStream, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = []
  let total = 0
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    total += buffer.length
    if (total > maxBytes) throw tooLarge(total, maxBytes, true)
    chunks.push(buffer)
  }
  return Buffer.concat(chunks).toString('utf8')
}

async function fetchText(url: string, maxBytes: number): Promise<string> {
  let response: Response
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(URL_TIMEOUT_MS), redirect: 'follow' })
  } catch (error) {
    throw new DocumentError('unreadable', `Could not fetch ${url}: ${describeFetchError(error)}.`)
  }
  if (!response.ok) {
    throw new DocumentError('unreadable', `Could not fetch ${url}: HTTP ${response.status}.`)
  }
  const declared = Number(response.headers.get('content-length') ?? 0)
  if (declared > maxBytes) {
    // An unread body keeps the connection, and so the process, alive until the server gives up.
    await response.body?.cancel().catch(() => {})
    throw tooLarge(declared, maxBytes)
  }
  if (!response.body) return ''
  return readStream(response.body as unknown as NodeJS.ReadableStream, maxBytes)
}

function describeFetchError(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError')
    return `no answer within ${URL_TIMEOUT_MS / 1000} s`
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  return cause?.code ?? cause?.message ?? String(error)
}

/**
 * The input of an engine command: a missing argument, or a path that names no file, is an
 * invalid input (a recipe error, exit 2); anything that fails later is an unreadable document.
 */
export async function readCommandInput(
  input: string | undefined,
  recipe: Recipe,
  options: SourceOptions,
): Promise<LoadedSource> {
  if (input === undefined || input === '') throw new RecipeError(recipe)
  try {
    return await readSource(input, options)
  } catch (error) {
    throw missingAsRecipe(error, recipe)
  }
}

/**
 * `readCommandInput`, but a local file is only checked, not read, so that the code that needs its
 * text reads it where it runs (`svc generate`'s worker); `-` and URLs are read as there.
 */
export async function locateCommandInput(
  input: string | undefined,
  recipe: Recipe,
  options: SourceOptions,
): Promise<LoadedSource | LocatedFile> {
  if (input === undefined || input === '' || input === '-' || /^https?:\/\//i.test(input))
    return readCommandInput(input, recipe, options)
  try {
    return locateFile(input, options)
  } catch (error) {
    throw missingAsRecipe(error, recipe)
  }
}

function missingAsRecipe(error: unknown, recipe: Recipe): unknown {
  return error instanceof MissingFileError
    ? new RecipeError({ ...recipe, problem: `No such file: ${error.path}` })
    : error
}
