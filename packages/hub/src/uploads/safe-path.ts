/** Why a path from an upload was refused. */
export type UnsafePathReason =
  'empty' | 'absolute' | 'parent segment' | 'backslash' | 'control character' | 'too long'

export type PathCheck = { ok: true; path: string } | { ok: false; reason: UnsafePathReason }

const MAX_PATH_LENGTH = 1024

/**
 * Normalises a relative upload path (`./a//b` → `a/b`) or says why it is unsafe: absolute
 * (`/x`, `C:/x`, `//host/x`), a `..` segment, a backslash, NUL or another control character.
 */
export function checkUploadPath(raw: string): PathCheck {
  if (raw.includes('\\')) return { ok: false, reason: 'backslash' }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(raw)) return { ok: false, reason: 'control character' }
  if (raw.startsWith('/') || /^[A-Za-z]:/.test(raw)) return { ok: false, reason: 'absolute' }
  const segments = raw.split('/').filter((s) => s !== '' && s !== '.')
  if (segments.includes('..')) return { ok: false, reason: 'parent segment' }
  if (segments.length === 0) return { ok: false, reason: 'empty' }
  const path = segments.join('/')
  if (path.length > MAX_PATH_LENGTH) return { ok: false, reason: 'too long' }
  return { ok: true, path }
}
