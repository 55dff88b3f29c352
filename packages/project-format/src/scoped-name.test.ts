import { describe, expect, it } from 'vitest'
import { handleProblem, isHandle } from './handle.js'
import { parseScopedName, SCOPED_NAME, scopedNameProblem } from './scoped-name.js'
import { isSlug } from './slug.js'
import { NAMES } from '../test/cases.js'

describe('@account/slug', () => {
  for (const [name, accepted] of NAMES)
    it(`${accepted ? 'accepts' : 'refuses'} '${name}'`, () => {
      expect(parseScopedName(name) !== undefined).toBe(accepted)
      expect(SCOPED_NAME.test(name)).toBe(accepted)
      expect(scopedNameProblem(name) === undefined).toBe(accepted)
    })

  it('splits a name into account and slug', () => {
    expect(parseScopedName('@acme/billing.v2')).toEqual({ account: 'acme', slug: 'billing.v2' })
  })

  it('takes an API name without the @ when not scoped', () => {
    expect(parseScopedName('acme/billing', { scoped: false })).toEqual({
      account: 'acme',
      slug: 'billing',
    })
    expect(parseScopedName('@acme/billing', { scoped: false })).toEqual({
      account: 'acme',
      slug: 'billing',
    })
    expect(parseScopedName('acme/billing')).toBeUndefined()
  })

  it('says which part breaks which rule', () => {
    expect(scopedNameProblem('billing')).toBe("'billing' is not scoped as '@account/slug'")
    expect(scopedNameProblem('@Acme/billing')).toBe(
      "'@Acme/billing' is not scoped as '@account/slug': 'Acme' is not a handle (1 to 39 lowercase letters, digits or inner hyphens)",
    )
    expect(scopedNameProblem('@acme/-x')).toBe(
      "'@acme/-x' is not scoped as '@account/slug': '-x' is not a slug (1 to 64 lowercase letters, digits, dots, hyphens or underscores, starting and ending with a letter or digit)",
    )
  })
})

describe('handles and slugs', () => {
  it('keeps dots and underscores out of handles, and lets slugs have them', () => {
    expect(isHandle('billing.v2')).toBe(false)
    expect(isSlug('billing.v2')).toBe(true)
    expect(isSlug('billing_v2')).toBe(true)
  })

  it('refuses reserved handles for new accounts', () => {
    expect(handleProblem('settings')).toBe("'settings' is reserved by the hub.")
    expect(handleProblem('Bad_Name')).toBe('Use 1–39 lowercase letters, digits or inner hyphens.')
    expect(handleProblem('acme')).toBeUndefined()
  })
})
