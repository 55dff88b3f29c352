import { describe, expect, it } from 'vitest'
import { readRootManifestText } from './root-manifest.js'
import { MANIFESTS } from '../test/cases.js'

describe('the root manifest', () => {
  for (const [what, text, problems] of MANIFESTS)
    it(`${problems.length === 0 ? 'accepts' : 'refuses'} ${what}`, () => {
      const reading = readRootManifestText(text, { version: 'optional' })
      expect(reading.ok ? [] : reading.problems).toEqual(problems)
    })

  it('gives the name split, the version, the imports and the whole document', () => {
    const text =
      '{"name":"@acme/billing","version":"1.0.0","imports":{"gen-zod":"./gen-zod/"},"x":1}'
    expect(readRootManifestText(text, { version: 'required' })).toEqual({
      ok: true,
      manifest: {
        name: { account: 'acme', slug: 'billing' },
        version: '1.0.0',
        imports: { 'gen-zod': './gen-zod/' },
      },
      document: JSON.parse(text),
    })
  })

  it('needs a version when none is given beside it', () => {
    const reading = readRootManifestText('{"name":"@acme/billing"}', { version: 'required' })
    expect(reading).toEqual({ ok: false, problems: ["it has no 'version'"] })
  })

  it('reads bytes as UTF-8 and refuses any other encoding', () => {
    const latin1 = Uint8Array.from(
      [...'{"name":"@acme/caf'].map((c) => c.charCodeAt(0)).concat(0xe9),
    )
    const reading = readRootManifestText(latin1, { version: 'optional' })
    expect(reading.ok).toBe(false)
    expect(reading.ok ? [] : reading.problems[0]).toMatch(/^it is not JSON \(/)
    const utf8 = new TextEncoder().encode('{"name":"@acme/billing","description":"café"}')
    expect(readRootManifestText(utf8, { version: 'optional' }).ok).toBe(true)
  })

  it('keeps an import named __proto__ as an import', () => {
    const reading = readRootManifestText('{"name":"@a/b","imports":{"__proto__":"./x/y.ts"}}', {
      version: 'optional',
    })
    expect(reading.ok && Object.entries(reading.manifest.imports)).toEqual([
      ['__proto__', './x/y.ts'],
    ])
  })
})
