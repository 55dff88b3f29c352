import { describe, expect, it } from 'vitest'
import { seal, unseal } from './sealed-secret.js'

const SECRET = {
  label: 'Signing secret',
  value: 'whsec_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG',
}

describe('a sealed secret', () => {
  it('opens with its key in its session only, and shows nothing of the secret', () => {
    const { sealed, key } = seal(SECRET, 'ses_1')
    expect(JSON.stringify(sealed)).not.toContain(SECRET.value)
    expect(JSON.stringify(sealed)).not.toContain(Buffer.from(SECRET.value).toString('base64url'))
    expect(unseal(sealed, key, 'ses_1')).toEqual(SECRET)

    expect(unseal(sealed, key, 'ses_2')).toBeUndefined()
    expect(unseal(sealed, seal(SECRET, 'ses_1').key, 'ses_1')).toBeUndefined()
    expect(unseal(sealed, 'not-a-key', 'ses_1')).toBeUndefined()
    expect(unseal({ ...sealed, box: sealed.box.slice(0, 20) }, key, 'ses_1')).toBeUndefined()
  })

  it('seals the same secret differently each time', () => {
    expect(seal(SECRET, 'ses_1').sealed.box).not.toBe(seal(SECRET, 'ses_1').sealed.box)
  })
})
