import { describe, expect, it } from 'vitest'
import { foldSettings, unfoldSettings } from './config-fold.js'

describe('foldSettings', () => {
  it('makes one row per variant of each operation and model block', () => {
    const config = foldSettings({
      basePath: 'src/api',
      enrichments: {
        'gen-zod': {
          '/pets': { get: { main: { name: 'listPets' }, 'line-items': { name: 'items' } } },
          Pet: { main: { exportName: 'PetSchema' } },
        },
      },
    })
    expect(config.settings).toEqual({ basePath: 'src/api' })
    expect(config.enrichments).toEqual([
      {
        generator: 'gen-zod',
        subject: ['/pets', 'get'],
        variant: 'main',
        value: { name: 'listPets' },
      },
      {
        generator: 'gen-zod',
        subject: ['/pets', 'get'],
        variant: 'line-items',
        value: { name: 'items' },
      },
      {
        generator: 'gen-zod',
        subject: ['Pet'],
        variant: 'main',
        value: { exportName: 'PetSchema' },
      },
    ])
  })

  it('keeps scopes and odd shapes as leaves, and unfolds back to the same settings', () => {
    const settings = {
      skip: ['/internal'],
      enrichments: {
        _stack: { prefix: 'Api', flags: [1, 2] },
        'gen-ts': { _generator: { indent: 2 }, '/pets': { post: {} }, Odd: { main: 1, Other: 2 } },
      },
    }
    const config = foldSettings(settings)
    expect(config.enrichments).toContainEqual({
      generator: '_stack',
      subject: ['flags'],
      variant: null,
      value: [1, 2],
    })
    expect(unfoldSettings(config)).toEqual(settings)
  })

  it('gives back an empty enrichments block', () => {
    const settings = { basePath: 'src', enrichments: {} }
    expect(foldSettings(settings).enrichments).toEqual([])
    expect(unfoldSettings(foldSettings(settings))).toEqual(settings)
  })

  it('adds a __proto__ key as data, never as a prototype', () => {
    const settings = JSON.parse(
      '{"enrichments":{"gen-ts":{"__proto__":{"main":{"polluted":true}}}}}',
    )
    const unfolded = unfoldSettings(foldSettings(settings))
    expect(JSON.stringify(unfolded)).toBe(JSON.stringify(settings))
    expect(({} as Record<string, unknown>).main).toBeUndefined()
  })

  it('refuses enrichments nested deeper than the limit', () => {
    let deep: Record<string, unknown> = { main: 1 }
    for (let i = 0; i < 40; i++) deep = { [`k${i}`]: deep }
    expect(() => foldSettings({ enrichments: { 'gen-ts': deep } })).toThrow(/deeper than 32/)
  })
})
