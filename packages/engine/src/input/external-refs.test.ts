import { describe, expect, it } from 'vitest'
import { mayHaveExternalRefs } from './external-refs.js'

describe('mayHaveExternalRefs', () => {
  it.each([
    ['"$ref": "./common.json#/components/schemas/Error"'],
    ['"$ref":"common.json"'],
    ['$ref: ./common.yaml#/Error'],
    ["$ref: '../shared/error.yaml'"],
    ['{ $ref: "https://example.com/x.json" }'],
  ])('sees a ref to another document in %s', (text) => {
    expect(mayHaveExternalRefs(text)).toBe(true)
  })

  it.each([
    ['"$ref": "#/components/schemas/Error"'],
    ["$ref: '#/components/schemas/Error'"],
    // A property named `$ref` (SCIM's Group members): a schema follows, not a reference.
    ['"properties": { "$ref": { "type": "string" } }'],
    ['properties:\n  $ref:\n    type: string'],
    ['no refs at all'],
  ])('sees none in %s', (text) => {
    expect(mayHaveExternalRefs(text)).toBe(false)
  })
})
