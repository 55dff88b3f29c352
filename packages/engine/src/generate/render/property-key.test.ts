import { describe, expect, it } from 'vitest'
import { propertyKey } from './property-key.js'

describe('propertyKey', () => {
  it.each([
    ['name', 'name'],
    ['$ref', '$ref'],
    ['class', 'class'],
    ['x-label', '"x-label"'],
    ['2fa', '"2fa"'],
    ['', '""'],
    ['__proto__', '"__proto__"'],
  ])('writes %j as %s', (name, key) => {
    expect(propertyKey(name)).toBe(key)
  })
})
