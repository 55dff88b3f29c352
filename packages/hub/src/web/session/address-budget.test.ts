import { describe, expect, it } from 'vitest'
import { AddressBudget } from './address-budget.js'

describe('an address budget', () => {
  it('refuses an address past its budget with the seconds to wait; others go ahead', async () => {
    const budget = new AddressBudget({ name: 'test', max: 3, windowSeconds: 60 })
    for (let i = 0; i < 3; i++) expect(await budget.spend('203.0.113.7')).toBe(0)
    const wait = await budget.spend('203.0.113.7')
    expect(wait).toBeGreaterThan(0)
    expect(wait).toBeLessThanOrEqual(60)
    expect(await budget.spend('198.51.100.20')).toBe(0)
  })
})
