/** Why a path from an upload was refused. */
export type UnsafePathReason =
  | 'empty'
  | 'absolute'
  | 'parent segment'
  | 'lookalike dots'
  | 'backslash'
  | 'control character'
  | 'format character'
  | 'too long'

export type PathCheck = { ok: true; path: string } | { ok: false; reason: UnsafePathReason }

const MAX_PATH_LENGTH = 1024

/**
 * Characters that change how a name reads without showing themselves: Unicode format characters
 * (U+202E turns the rest of a name around, U+200B is invisible), line and paragraph separators,
 * and unpaired surrogates (stored as something else by each database).
 */
const FORMAT = /[\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u

/**
 * Normalises a relative upload path (`./a//b` → `a/b`, Unicode to NFC, so one name has one
 * spelling) or says why it is unsafe: absolute (`/x`, `C:/x`, `//host/x`), a `..` segment or one
 * that reads as dots (`․․`, `．．`), a backslash, a control character (NUL …) or a format
 * character (U+202E right-to-left override, U+2028 …), which would let a name pass for another
 * in pages and terminals.
 */
export function checkUploadPath(raw: string): PathCheck {
  if (raw.includes('\\')) return { ok: false, reason: 'backslash' }
  if (/\p{Cc}/u.test(raw)) return { ok: false, reason: 'control character' }
  if (FORMAT.test(raw)) return { ok: false, reason: 'format character' }
  const name = raw.normalize('NFC')
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return { ok: false, reason: 'absolute' }
  const segments = name.split('/').filter((s) => s !== '' && s !== '.')
  if (segments.includes('..')) return { ok: false, reason: 'parent segment' }
  if (segments.some(readsAsDots)) return { ok: false, reason: 'lookalike dots' }
  if (segments.length === 0) return { ok: false, reason: 'empty' }
  const path = segments.join('/')
  if (path.length > MAX_PATH_LENGTH) return { ok: false, reason: 'too long' }
  return { ok: true, path }
}

/** A segment spelled with other characters than `.` that compatibility folding turns into dots. */
function readsAsDots(segment: string): boolean {
  const folded = segment.normalize('NFKC')
  return folded !== segment && /^\.+$/.test(folded)
}
