import { describe, expect, it } from 'vitest'
import { createIdentifier } from './identifier.js'
import { toIdentifierName } from './to-identifier-name.js'

describe('toIdentifierName', () => {
  const table: [text: string, pascal: string, camel: string][] = [
    ['pet-store item', 'PetStoreItem', 'petStoreItem'],
    ['Pet', 'Pet', 'pet'],
    ['petStore', 'PetStore', 'petStore'],
    ['pet_store', 'PetStore', 'petStore'],
    ['PET_STORE', 'PetStore', 'petStore'],
    ['HTTPServer', 'HTTPServer', 'httpServer'],
    ['PetDTO', 'PetDTO', 'petDTO'],
    ['XMLHttpRequest', 'XMLHttpRequest', 'xmlHttpRequest'],
    ['user.name', 'UserName', 'userName'],
    ['/pets/{petId}', 'PetsPetId', 'petsPetId'],
    ['v2 api', 'V2Api', 'v2Api'],
    ['2fa', '_2fa', '_2fa'],
    ['404 response', '_404Response', '_404Response'],
    ['__proto__', 'Proto', 'proto'],
    ['constructor', 'Constructor', 'constructor'],
    ['$ref', 'Ref', 'ref'],
    ['class', 'Class', 'class_'],
    ['await', 'Await', 'await_'],
    ['enum', 'Enum', 'enum_'],
    ['string', 'String', 'string_'],
    ['undefined', 'Undefined', 'undefined_'],
    ['NaN', 'NaN_', 'naN'],
    ['type', 'Type', 'type'],
    ['café crème', 'CafeCreme', 'cafeCreme'],
    ['Ｐｅｔ', 'Pet', 'pet'],
    ['日本', 'U65e5U672c', 'u65e5U672c'],
    ['Pet日', 'PetU65e5', 'petU65e5'],
    ['ＰＥＴ_ＳＴＯＲＥ', 'PetStore', 'petStore'],
    ['pet 😀 store', 'PetStore', 'petStore'],
    ['', '_', '_'],
    ['  --  ', '_', '_'],
  ]

  it.each(table)('%j → %s / %s', (text, pascal, camel) => {
    expect(toIdentifierName(text, 'pascal')).toBe(pascal)
    expect(toIdentifierName(text, 'camel')).toBe(camel)
  })

  it('always gives a name that createIdentifier accepts as a type and as a value', () => {
    for (const [text] of table)
      for (const casing of ['pascal', 'camel'] as const) {
        const name = toIdentifierName(text, casing)
        expect(createIdentifier(name, 'type').name).toBe(name)
        expect(createIdentifier(name, 'value').name).toBe(name)
      }
  })
})
