import { describe, expect, it } from 'vitest'
import type { Schema } from '../model/schema.js'
import { MAX_REF_LOOKUPS, resolveRef } from './resolve-ref.js'

const ref = (name: string): Schema => ({
  kind: 'ref',
  $ref: `#/components/schemas/${name}`,
  refName: name,
  nullable: false,
})

/** A chain S0 → S1 → … → S<refs-1> → Target: resolving S0 visits `refs` + 1 components. */
function chain(refs: number) {
  const schemas: Record<string, Schema> = { Target: { kind: 'string', nullable: false } }
  for (let i = 0; i < refs; i++) schemas[`S${i}`] = ref(i === refs - 1 ? 'Target' : `S${i + 1}`)
  return {
    components: {
      schemas,
      parameters: {},
      responses: {},
      requestBodies: {},
      headers: {},
      securitySchemes: {},
    },
  }
}

describe('resolveRef', () => {
  it('follows refs to refs up to the limit of 10 lookups', () => {
    const model = chain(MAX_REF_LOOKUPS - 1)
    expect(resolveRef(model, '#/components/schemas/S0', 'schemas')).toEqual({
      kind: 'string',
      nullable: false,
    })
  })

  it('throws "Max lookups reached" past 10 lookups', () => {
    const model = chain(MAX_REF_LOOKUPS)
    expect(() => resolveRef(model, '#/components/schemas/S0', 'schemas')).toThrowError(
      /^Max lookups reached$/,
    )
  })

  it('throws "Max lookups reached" on a cycle instead of looping', () => {
    const model = chain(1)
    model.components.schemas.A = ref('B')
    model.components.schemas.B = ref('A')
    expect(() => resolveRef(model, '#/components/schemas/A', 'schemas')).toThrow(
      'Max lookups reached',
    )
  })

  it('throws Ref "<$ref>" not found for a missing target', () => {
    expect(() => resolveRef(chain(1), '#/components/schemas/Nope', 'schemas')).toThrow(
      'Ref "#/components/schemas/Nope" not found',
    )
  })

  it('throws a type mismatch when the ref points into another bucket', () => {
    expect(() => resolveRef(chain(1), '#/components/parameters/Limit', 'schemas')).toThrow(
      'Ref type mismatch for "#/components/parameters/Limit". Expected "schema" but got "parameter"',
    )
  })

  it('decodes JSON-pointer escapes in component names', () => {
    const model = chain(1)
    model.components.schemas['a/b~c'] = { kind: 'boolean', nullable: false }
    expect(resolveRef(model, '#/components/schemas/a~1b~0c', 'schemas')).toEqual({
      kind: 'boolean',
      nullable: false,
    })
  })
})
