import { describe, expect, it } from 'vitest'
import { AccountAdmission } from './account-admission.js'

describe('AccountAdmission', () => {
  it('admits up to the limit per key, each key on its own', () => {
    const admission = new AccountAdmission({ perAccount: 2, total: 100 })
    const first = admission.enter('user:a')
    const second = admission.enter('user:a')
    expect(first).toBeTypeOf('function')
    expect(second).toBeTypeOf('function')
    expect(admission.enter('user:a')).toBe(2)
    expect(admission.enter('user:b')).toBeTypeOf('function')
    expect(admission.size('user:a')).toBe(2)
    expect(admission.underWay).toBe(3)
  })

  it('gives a place back once, however often it is released', () => {
    const admission = new AccountAdmission({ perAccount: 1, total: 100 })
    const release = admission.enter('user:a') as () => void
    release()
    release()
    expect(admission.size('user:a')).toBe(0)
    expect(admission.underWay).toBe(0)
    expect(admission.enter('user:a')).toBeTypeOf('function')
    expect(admission.enter('user:a')).toBe(1)
  })

  it('past the total, holds each account to its fair share and still admits a newcomer', () => {
    const admission = new AccountAdmission({ perAccount: 8, total: 8 })
    // Two accounts fill the hub between them.
    for (let i = 0; i < 4; i++) admission.enter('user:a')
    for (let i = 0; i < 4; i++) admission.enter('user:b')
    expect(admission.underWay).toBe(8)
    // Each holds its share (8 / 2 = 4): neither gets more.
    expect(admission.enter('user:a')).toBe(4)
    // A third account still gets in; then each share is 8 / 3 = 2.
    expect(admission.enter('user:c')).toBeTypeOf('function')
    expect(admission.enter('user:a')).toBe(2)
    expect(admission.enter('user:c')).toBeTypeOf('function')
    expect(admission.enter('user:c')).toBe(2)
    // Eight more accounts: each still gets its first place.
    for (let i = 0; i < 8; i++) expect(admission.enter(`user:n${i}`)).toBeTypeOf('function')
    expect(admission.enter('user:n0')).toBe(1)
  })

  it('refuses limits below one', () => {
    expect(() => new AccountAdmission({ perAccount: 0, total: 1 })).toThrow(RangeError)
    expect(() => new AccountAdmission({ perAccount: 1, total: 0 })).toThrow(RangeError)
  })
})
