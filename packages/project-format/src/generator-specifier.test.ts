import { describe, expect, it } from 'vitest'
import { classifyGeneratorSpecifier, parseJsrSpecifier } from './generator-specifier.js'

describe('a gen-* import value', () => {
  it('is imported when it is a jsr: specifier, the range defaulting to *', () => {
    expect(classifyGeneratorSpecifier('jsr:@svc/gen-zod@^0.1.0')).toEqual({
      kind: 'imported',
      specifier: 'jsr:@svc/gen-zod@^0.1.0',
      id: '@svc/gen-zod',
      range: '^0.1.0',
    })
    expect(parseJsrSpecifier('jsr:@acme/gen-x')).toEqual({ id: '@acme/gen-x', range: '*' })
  })

  it('is cloned when it is a ./ path into a folder, normalised', () => {
    expect(classifyGeneratorSpecifier('./gen-zod//./mod.ts')).toEqual({
      kind: 'cloned',
      specifier: './gen-zod//./mod.ts',
      path: 'gen-zod/mod.ts',
      folder: 'gen-zod',
      directory: false,
    })
    expect(classifyGeneratorSpecifier('./my-types/')).toMatchObject({
      kind: 'cloned',
      path: 'my-types',
      folder: 'my-types',
      directory: true,
    })
  })

  it('normalises a cloned path to NFC, as the hub stores uploaded paths', () => {
    const decomposed = './gen-cafe\u0301/mod.ts'
    expect(classifyGeneratorSpecifier(decomposed)).toMatchObject({ path: 'gen-café/mod.ts' })
  })

  const invalid = [
    ['npm:gen-zod', 'scheme'],
    ['https://example.com/gen.ts', 'scheme'],
    ['http://example.com/gen.ts', 'scheme'],
    ['jsr:gen-zod', 'jsr'],
    ['jsr:@svc', 'jsr'],
    ['gen-zod/mod.ts', 'bare path'],
    ['mod.ts', 'bare path'],
    ['../gen-zod/mod.ts', 'unsafe path'],
    ['..', 'unsafe path'],
    ['./gen-zod/../../x.ts', 'unsafe path'],
    ['/abs/gen/mod.ts', 'unsafe path'],
    ['C:/gen/mod.ts', 'unsafe path'],
    ['.\\gen\\mod.ts', 'unsafe path'],
    ['./gen-\u0000/mod.ts', 'unsafe path'],
    ['./', 'unsafe path'],
    ['./mod.ts', 'not in a folder'],
  ] as const
  for (const [specifier, problem] of invalid)
    it(`refuses '${specifier}' (${problem})`, () => {
      expect(classifyGeneratorSpecifier(specifier)).toEqual({ kind: 'invalid', specifier, problem })
    })
})
