import { describe, expect, it } from 'vitest'
import { minLevelsReached } from './min-level.js'

const changelog = (diff: boolean, breaking: number, warning: number, info: number) => ({
  summary: { diff, details: {} },
  counts: { breaking, warning, info },
})

describe('the minimum levels a revision event reaches', () => {
  it('no webhook, whatever its level, for a revision that does not differ', () => {
    expect(minLevelsReached(changelog(false, 0, 0, 0))).toEqual([])
  })

  it('info only, for info changes', () => {
    expect(minLevelsReached(changelog(true, 0, 0, 3))).toEqual(['info'])
  })

  it('info and warning, for a warning without a breaking change', () => {
    expect(minLevelsReached(changelog(true, 0, 1, 0))).toEqual(['info', 'warning'])
    expect(minLevelsReached(changelog(true, 0, 2, 5))).toEqual(['info', 'warning'])
  })

  it('every level, for a breaking change, with or without others', () => {
    expect(minLevelsReached(changelog(true, 1, 0, 0))).toEqual(['info', 'warning', 'breaking'])
    expect(minLevelsReached(changelog(true, 2, 1, 4))).toEqual(['info', 'warning', 'breaking'])
  })

  it('info, for a revision that differs in a section without a counted change', () => {
    expect(minLevelsReached(changelog(true, 0, 0, 0))).toEqual(['info'])
  })
})
