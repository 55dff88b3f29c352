import { describe, expect, it } from 'vitest'
import { createIdentifier, type IdentifierKind } from './identifier.js'

describe('createIdentifier', () => {
  it('accepts ASCII identifiers and contextual keywords, and freezes the result', () => {
    for (const name of ['Pet', 'petSchema', '_private', '$ref', 'a1', '__proto__', 'constructor'])
      expect(createIdentifier(name, 'value')).toEqual({ name, kind: 'value' })
    for (const name of ['type', 'of', 'from', 'async', 'declare', 'satisfies', 'keyof', 'infer'])
      expect(createIdentifier(name, 'type').name).toBe(name)
    expect(createIdentifier('string', 'value').name).toBe('string')
    expect(createIdentifier('as', 'value').name).toBe('as')
    expect(Object.isFrozen(createIdentifier('Pet', 'type'))).toBe(true)
  })

  const invalid: [name: string, kind: IdentifierKind, message: string][] = [
    ['', 'value', "Invalid identifier '': must not be empty"],
    ['2fa', 'value', "Invalid identifier '2fa': must not start with a digit"],
    [
      'pet-store',
      'type',
      "Invalid identifier 'pet-store': contains '-' (U+002D); only ASCII letters, digits, '_' and '$' are allowed",
    ],
    [
      'pet store',
      'type',
      "Invalid identifier 'pet store': contains ' ' (U+0020); only ASCII letters, digits, '_' and '$' are allowed",
    ],
    ['class', 'value', "Invalid identifier 'class': is a reserved word"],
    ['enum', 'type', "Invalid identifier 'enum': is a reserved word"],
    ['interface', 'type', "Invalid identifier 'interface': is a reserved word"],
    ['let', 'value', "Invalid identifier 'let': is a reserved word"],
    ['yield', 'value', "Invalid identifier 'yield': is a reserved word"],
    ['await', 'value', "Invalid identifier 'await': is a reserved word"],
    ['null', 'type', "Invalid identifier 'null': is a reserved word"],
    ['eval', 'value', "Invalid identifier 'eval': cannot be declared in strict mode code"],
    [
      'arguments',
      'value',
      "Invalid identifier 'arguments': cannot be declared in strict mode code",
    ],
    ['undefined', 'value', "Invalid identifier 'undefined': would shadow a global value"],
    ['NaN', 'value', "Invalid identifier 'NaN': would shadow a global value"],
    ['string', 'type', "Invalid identifier 'string': is a predefined type name"],
    ['unknown', 'type', "Invalid identifier 'unknown': is a predefined type name"],
    ['as', 'type', "Invalid identifier 'as': cannot name an exported type alias"],
  ]
  it.each(invalid)('rejects %j as a %s', (name, kind, message) => {
    expect(() => createIdentifier(name, kind)).toThrow(new Error(message))
  })

  it('rejects escapes and look-alikes that JavaScript would read as other names', () => {
    const cases: [name: string, reason: string][] = [
      // In source text `cl\u0061ss` is the reserved word `class`, and `\u0050et` is `Pet`.
      ['cl\\u0061ss', "contains '\\' (U+005C)"],
      ['\\u0050et', "contains '\\' (U+005C)"],
      // Cyrillic 'а' (U+0430), which looks like the Latin 'a' of `class`.
      ['cl\u0430ss', "contains '\u0430' (U+0430)"],
      // A zero-width joiner is an identifier part in JavaScript but invisible in a diff.
      ['Pet\u200dStore', "contains '\u200d' (U+200D)"],
      ['Ｐet', "contains 'Ｐ' (U+FF30)"],
      ['😀', "contains '😀' (U+1F600)"],
    ]
    for (const [name, reason] of cases)
      expect(() => createIdentifier(name, 'value')).toThrow(
        `Invalid identifier '${name}': ${reason}; only ASCII letters, digits, '_' and '$' are allowed`,
      )
  })
})
