import { describe, expect, it } from 'vitest'
import type { DiffPolicy } from '../policies.js'
import { api, diff, withOperation, type Doc } from './test-documents.js'

const TODAY = new Date('2026-06-01T12:00:00Z')
const op = (extra: Doc = {}, info?: Doc) => withOperation(extra, info ? { info } : {})
const version = (v: string) => ({ title: 'Test', version: v })
const breakingPair = (from: string, to: string): [Doc, Doc] => [
  op({}, version(from)),
  api({ info: version(to) }),
]

/** The ids of the changes, but `api-info-changed`: a new version is also a documentation change. */
async function ids(old: Doc, next: Doc, ...policies: DiffPolicy[]): Promise<string[]> {
  const { changes } = await diff(old, next, { policies: new Set(policies), now: TODAY })
  return changes.map((change) => change.id).filter((id) => id !== 'api-info-changed')
}

describe('x-sunset, whatever the policies', () => {
  it('lets a deprecated operation go once its sunset date has passed, not before', async () => {
    const old = (sunset: string) => op({ deprecated: true, 'x-sunset': sunset })
    expect(await ids(old('2026-05-31'), api())).toEqual(['deprecated-endpoint-removed'])
    expect(await ids(old('2026-06-02T00:00:00Z'), api())).toEqual([
      'endpoint-removed-before-sunset',
    ])
  })

  it('accepts a sunset moved later', async () => {
    const later = await ids(
      op({ deprecated: true, 'x-sunset': '2026-09-01' }),
      op({ deprecated: true, 'x-sunset': '2027-01-01' }),
    )
    expect(later).toEqual([])
  })
})

describe('the sunset policy', () => {
  it('accepts a deprecation with a date to come', async () => {
    expect(await ids(op(), op({ deprecated: true, 'x-sunset': '2026-12-31' }), 'sunset')).toEqual([
      'endpoint-deprecated',
    ])
  })

  it('does not ask a draft or alpha operation for a sunset date', async () => {
    const draft = (extra: Doc = {}) => op({ 'x-stability-level': 'alpha', ...extra })
    expect(await ids(draft(), draft({ deprecated: true }), 'sunset')).toEqual([
      'endpoint-deprecated',
    ])
  })

  it('refuses a day that does not exist', async () => {
    for (const sunset of ['2026-02-30', '2026-13-01', '2026-6-1'])
      expect(await ids(op(), op({ deprecated: true, 'x-sunset': sunset }), 'sunset')).toContain(
        'endpoint-sunset-invalid',
      )
  })

  it('says nothing about an invalid value that did not change', async () => {
    const same = op({ deprecated: true, 'x-sunset': 'soon', summary: 'a' })
    expect(await ids(same, op({ deprecated: true, 'x-sunset': 'soon' }), 'sunset')).not.toContain(
      'endpoint-sunset-invalid',
    )
  })
})

describe('x-stability-level, whatever the policies', () => {
  it('makes the removal of a draft or alpha operation info; of a beta or stable one, breaking', async () => {
    for (const [level, id] of [
      ['stable', 'endpoint-removed'],
      ['beta', 'endpoint-removed'],
      ['alpha', 'unstable-endpoint-removed'],
      ['draft', 'unstable-endpoint-removed'],
    ] as const)
      expect(await ids(op({ 'x-stability-level': level }), api()), level).toEqual([id])
  })

  it('reads an operation without x-stability-level as stable', async () => {
    expect(await ids(op({ 'x-stability-level': 'beta' }), op())).toEqual([
      'endpoint-stability-increased',
    ])
    expect(await ids(op(), op({ 'x-stability-level': 'stable' }))).toEqual([])
  })

  it('leaves a level that is not one of the four to the stability policy', async () => {
    const odd = op({ 'x-stability-level': 'experimental' })
    expect(await ids(op(), odd)).toEqual([])
    expect(await ids(odd, op())).toEqual([])
    expect(await ids(op(), odd, 'stability')).toEqual(['endpoint-stability-invalid'])
  })
})

describe('the version policy', () => {
  it('wants a new major version for breaking changes (a new minor one below 1.0.0)', async () => {
    expect(await ids(...breakingPair('1.4.0', '2.0.0'), 'version')).toEqual(['endpoint-removed'])
    expect(await ids(...breakingPair('0.4.0', '0.5.0'), 'version')).toEqual(['endpoint-removed'])
    expect(await ids(...breakingPair('0.4.0', '0.4.1'), 'version')).toContain(
      'api-major-version-not-bumped',
    )
  })

  it('asks nothing of additive changes, nor of versions that are not semver beyond changing', async () => {
    expect(await ids(api({ info: version('1.0.0') }), op({}, version('1.0.0')), 'version')).toEqual(
      ['endpoint-added'],
    )
    expect(await ids(...breakingPair('2024-01-01', '2024-02-01'), 'version')).toEqual([
      'endpoint-removed',
    ])
    expect(await ids(...breakingPair('2024-01-01', '2024-01-01'), 'version')).toContain(
      'api-version-not-bumped',
    )
  })

  it('reports a version that went down with breaking changes, and nothing without them', async () => {
    expect(await ids(...breakingPair('1.2.0', '1.1.0'), 'version')).toContain(
      'api-version-decreased',
    )
    expect(await ids(op({}, version('1.2.0')), op({}, version('1.1.0')), 'version')).toEqual([])
  })
})

describe('policies', () => {
  it('apply together, and none applies by default', async () => {
    const [old, next] = [op({ 'x-stability-level': 'beta' }), op({ deprecated: true })]
    expect(await ids(old, next)).toEqual(['endpoint-deprecated', 'endpoint-stability-increased'])
    expect((await ids(old, next, 'sunset', 'stability', 'version')).sort()).toEqual([
      'api-version-not-bumped',
      'endpoint-deprecated',
      'endpoint-deprecated-without-sunset',
      'endpoint-stability-increased',
    ])
  })
})

describe('x-sunset on a parameter', () => {
  const limit = (extra: Doc = {}) => ({
    name: 'limit',
    in: 'query',
    schema: { type: 'integer' },
    ...extra,
  })
  const inline = (extra?: Doc) => op({ parameters: extra ? [limit(extra)] : [] })
  const shared = (extra: Doc) =>
    withOperation(
      { parameters: [{ $ref: '#/components/parameters/limit' }] },
      { components: { parameters: { limit: limit(extra) } } },
    )

  it('lets a deprecated parameter go once its sunset date has passed', async () => {
    const gone = await ids(inline({ deprecated: true, 'x-sunset': '2026-05-31' }), inline())
    expect(gone).toEqual(['deprecated-request-parameter-removed'])
  })

  it('is read through a $ref, under the operations that use it', async () => {
    const { changes } = await diff(
      shared({ deprecated: true, 'x-sunset': '2027-01-01' }),
      shared({ deprecated: true, 'x-sunset': '2026-07-01' }),
      { now: TODAY },
    )
    expect(changes.map(({ id, location, operations }) => ({ id, location, operations }))).toEqual([
      {
        id: 'request-parameter-sunset-moved-earlier',
        location: '/components/parameters/limit/x-sunset',
        operations: ['GET /items'],
      },
    ])
    expect(
      await ids(shared({}), shared({ deprecated: true, 'x-sunset': 'soon' }), 'sunset'),
    ).toContain('request-parameter-sunset-invalid')
  })
})
