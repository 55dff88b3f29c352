import { describe, expect, it } from 'vitest'
import { malformedPat } from './token-format.js'

const WELL_FORMED = `svc_pat_${'a'.repeat(40)}_-Z`

describe('malformedPat', () => {
  it('says how long the secret is when it is cut short, never repeating it', () => {
    const problem = malformedPat('svc_pat_abc')
    expect(problem).toBe(
      'the token starts with svc_pat_ but has 3 characters after svc_pat_ where a personal access token has 43: was it copied whole?',
    )
  })

  it('names the characters a token never holds', () => {
    expect(malformedPat(`svc_pat_${'a'.repeat(42)}!`)).toContain(
      "holds '!', which a personal access token never does (only A-Z a-z 0-9 _ -)",
    )
  })

  it('has nothing to say about a well-formed token, or a value that is not meant as one', () => {
    expect(malformedPat(WELL_FORMED)).toBeUndefined()
    expect(malformedPat('ghp_something')).toBeUndefined()
  })
})
