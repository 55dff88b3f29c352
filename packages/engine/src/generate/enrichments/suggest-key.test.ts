import { describe, expect, it } from 'vitest'
import { suggestKey } from './suggest-key.js'

describe('suggestKey', () => {
  it('suggests a near miss within two edits for keys longer than 4 characters', () => {
    expect(suggestKey('/pest', ['/pets', '/users'])).toBe('/pets')
    expect(suggestKey('operationIdd', ['operationId'])).toBe('operationId')
    expect(suggestKey('clientNme', ['clientName', 'basePath'])).toBe('clientName')
  })

  it('lets a case-only match win over a closer one', () => {
    // 'Users' is one edit from 'users' but also a case-only match of 'USERS'
    expect(suggestKey('USERS', ['Users', 'USER'])).toBe('Users')
    expect(suggestKey('POST', ['post', 'PUT'])).toBe('post')
  })

  it('gives no suggestion beyond the limit', () => {
    expect(suggestKey('/pets', ['/orders'])).toBeUndefined()
    expect(suggestKey('tagName', ['tgNme1'])).toBeUndefined() // three edits
    expect(suggestKey('anything', [])).toBeUndefined()
  })

  it('allows only one edit for keys of 4 characters or fewer', () => {
    expect(suggestKey('pst', ['post'])).toBe('post')
    expect(suggestKey('psot', ['post'])).toBeUndefined()
    expect(suggestKey('gt', ['get'])).toBe('get')
    expect(suggestKey('gte', ['get'])).toBeUndefined()
    // five characters: two edits allowed
    expect(suggestKey('ptach', ['patch'])).toBe('patch')
  })

  it('breaks ties the same way whatever order candidates come in', () => {
    expect(suggestKey('pets', ['pats', 'pots'])).toBe('pats')
    expect(suggestKey('pets', ['pots', 'pats'])).toBe('pats')
  })

  it('never suggests the key itself', () => {
    expect(suggestKey('main', ['main'])).toBeUndefined()
  })
})
