import { describe, expect, it } from 'vitest'
import { AccountAdmission } from './account-admission.js'

describe('AccountAdmission', () => {
  it('admits up to the limit per key, each key on its own', () => {
    const admission = new AccountAdmission(2)
    const first = admission.enter('user:a')
    const second = admission.enter('user:a')
    expect(first && second).toBeTypeOf('function')
    expect(admission.enter('user:a')).toBeUndefined()
    expect(admission.enter('user:b')).toBeTypeOf('function')
    expect(admission.size('user:a')).toBe(2)
  })

  it('gives a place back once, however often it is released', () => {
    const admission = new AccountAdmission(1)
    const release = admission.enter('user:a')!
    release()
    release()
    expect(admission.size('user:a')).toBe(0)
    const again = admission.enter('user:a')
    expect(again).toBeTypeOf('function')
    expect(admission.enter('user:a')).toBeUndefined()
  })

  it('refuses a limit below one', () => {
    expect(() => new AccountAdmission(0)).toThrow(RangeError)
  })
})
