/** Why a document could not be read at all (as opposed to a parse issue inside a readable one). */
export const DOCUMENT_ERROR_CODES = [
  'empty_document',
  'invalid_syntax',
  'unknown_protocol',
  'unsupported_version',
  'not_an_object',
  'too_large',
  'too_deep',
  'alias_limit',
  'too_complex',
  'conversion_failed',
  'unreadable',
] as const

export type DocumentErrorCode = (typeof DOCUMENT_ERROR_CODES)[number]

/** Whether a code read from elsewhere (a hub's answer) is one of {@link DOCUMENT_ERROR_CODES}. */
export function isDocumentErrorCode(code: unknown): code is DocumentErrorCode {
  return (DOCUMENT_ERROR_CODES as readonly unknown[]).includes(code)
}

/** Thrown when the input is not a readable API description; the CLI maps it to exit code 1. */
export class DocumentError extends Error {
  override readonly name = 'DocumentError'
  readonly code: DocumentErrorCode
  readonly line?: number
  readonly column?: number
  readonly file?: string

  constructor(
    code: DocumentErrorCode,
    message: string,
    where: { line?: number; column?: number; file?: string; cause?: unknown } = {},
  ) {
    super(message, where.cause === undefined ? undefined : { cause: where.cause })
    this.code = code
    if (where.line !== undefined) this.line = where.line
    if (where.column !== undefined) this.column = where.column
    if (where.file !== undefined) this.file = where.file
  }
}

/** Turns a stack overflow deep inside a third-party walker into a clear document error. */
export function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message)
}
