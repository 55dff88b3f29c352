import { describe, expect, it } from 'vitest'
import { checkUploadPath } from './safe-path.js'

describe('checkUploadPath', () => {
  it.each([
    ['./src//main.ts', 'src/main.ts'],
    ['src/./a/b.ts', 'src/a/b.ts'],
    ['...', '...'],
    ['docs/…draft.md', 'docs/…draft.md'],
    ['emoji-😀.md', 'emoji-😀.md'],
  ])('keeps %j as %j', (raw, path) => {
    expect(checkUploadPath(raw)).toEqual({ ok: true, path })
  })

  it('stores one spelling of a name: Unicode NFC', () => {
    const decomposed = 'cafe\u0301.ts'
    const precomposed = 'caf\u00e9.ts'
    expect(checkUploadPath(decomposed)).toEqual({ ok: true, path: precomposed })
    expect(checkUploadPath(precomposed)).toEqual({ ok: true, path: precomposed })
  })

  it.each([
    ['../x', 'parent segment'],
    ['a/\u2024\u2024/x', 'lookalike dots'],
    ['\uff0e\uff0e/x', 'lookalike dots'],
    ['a/\u2025/x', 'lookalike dots'],
    ['a/\u2026/x', 'lookalike dots'],
    ['a/\ufe52\ufe52', 'lookalike dots'],
    ['invoice\u202Eexe.pdf', 'format character'],
    ['a\u2028b', 'format character'],
    ['a\u2029b', 'format character'],
    ['zero\u200Bwidth', 'format character'],
    ['\ufeffbom.ts', 'format character'],
    ['lone\ud800.ts', 'format character'],
    ['a\u0000b', 'control character'],
    ['a\u0085b', 'control character'],
    ['a\u009bb', 'control character'],
    ['a\\b', 'backslash'],
    ['/etc/passwd', 'absolute'],
    ['./', 'empty'],
  ])('refuses %j: %s', (raw, reason) => {
    expect(checkUploadPath(raw)).toEqual({ ok: false, reason })
  })
})
