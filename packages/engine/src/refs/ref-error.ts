export type RefErrorCode = 'max_lookups' | 'not_found' | 'type_mismatch'

/** A reference that cannot be followed at generate time (SPEC §7.6). */
export class RefError extends Error {
  override readonly name = 'RefError'
  readonly code: RefErrorCode
  readonly ref: string

  constructor(code: RefErrorCode, ref: string, message: string) {
    super(message)
    this.code = code
    this.ref = ref
  }

  static maxLookups(ref: string): RefError {
    return new RefError('max_lookups', ref, 'Max lookups reached')
  }

  static notFound(ref: string): RefError {
    return new RefError('not_found', ref, `Ref "${ref}" not found`)
  }

  static typeMismatch(ref: string, expected: string, actual: string): RefError {
    return new RefError(
      'type_mismatch',
      ref,
      `Ref type mismatch for "${ref}". Expected "${expected}" but got "${actual}"`,
    )
  }
}
