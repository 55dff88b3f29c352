/**
 * A definition's code as files hold it: Unix newlines, no blank lines before, no whitespace
 * after (blank lines between definitions are the renderer's). The same string when it is so
 * already: `normalizeCode(normalizeCode(code)) === normalizeCode(code)`.
 */
export function normalizeCode(code: string): string {
  // Most generated code has no carriage return and starts with its first character: skip the
  // passes that would copy it unchanged.
  const lines = code.includes('\r') ? code.replace(/\r\n?/g, '\n') : code
  const first = lines.charCodeAt(0)
  const body =
    first === 32 || first === 9 || first === 10 ? lines.replace(LEADING_BLANK, '') : lines
  return body.trimEnd()
}

const LEADING_BLANK = /^(?:[ \t]*\n)+/
