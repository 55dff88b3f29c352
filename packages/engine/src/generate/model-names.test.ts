import { describe, expect, it } from 'vitest'
import {
  claimNames,
  distinctModelNames,
  distinctNames,
  distinctWriteViewNames,
} from './model-names.js'
import { toIdentifierName } from './render/index.js'

const names = (refNames: string[]) => Object.fromEntries(distinctModelNames(refNames))
const identifiers = (refNames: string[], casing: 'pascal' | 'camel') => {
  const distinct = distinctModelNames(refNames)
  return refNames.map((refName) => toIdentifierName(distinct.get(refName)!, casing))
}

describe('distinctModelNames', () => {
  it('leaves names that collide with nothing as they are', () => {
    expect(names(['Pet', 'pet-store', 'Owner'])).toEqual({
      Pet: 'Pet',
      'pet-store': 'pet-store',
      Owner: 'Owner',
    })
  })

  it('gives the first in document order the name, and the others a counter', () => {
    expect(names(['pet.owner', 'Pet Owner', 'pet_owner'])).toEqual({
      'pet.owner': 'pet.owner',
      'Pet Owner': 'Pet Owner 2',
      pet_owner: 'pet_owner 3',
    })
    expect(identifiers(['pet.owner', 'Pet Owner', 'pet_owner'], 'pascal')).toEqual([
      'PetOwner',
      'PetOwner2',
      'PetOwner3',
    ])
  })

  it('lets the schema already named like the identifier keep it, wherever it is', () => {
    const refNames = ['pet.owner', 'Pet Owner', 'PetOwner']
    expect(names(refNames)).toEqual({
      'pet.owner': 'pet.owner 2',
      'Pet Owner': 'Pet Owner 3',
      PetOwner: 'PetOwner',
    })
    expect(identifiers(refNames, 'pascal')).toEqual(['PetOwner2', 'PetOwner3', 'PetOwner'])
  })

  it('tells apart names that differ only in case, in camelCase as well', () => {
    const refNames = ['petOwner', 'PetOwner', 'PETOWNER']
    expect(identifiers(refNames, 'pascal')).toEqual(['PetOwner2', 'PetOwner', 'Petowner3'])
    expect(new Set(identifiers(refNames, 'camel')).size).toBe(3)
  })

  it('never gives a counter that another schema has as its own name', () => {
    expect(names(['pet.owner', 'PetOwner', 'PetOwner2'])).toEqual({
      'pet.owner': 'pet.owner 3',
      PetOwner: 'PetOwner',
      PetOwner2: 'PetOwner2',
    })
  })

  it('renames nothing when a schema that collides with nothing is added anywhere', () => {
    const before = names(['pet.owner', 'Pet Owner', 'Tag'])
    const after = names(['Address', 'pet.owner', 'Order', 'Pet Owner', 'Tag', 'Zone'])
    for (const [refName, name] of Object.entries(before)) expect(after[refName]).toBe(name)
  })

  it('gives the same names for the same document, every time', () => {
    const refNames = ['b.c', 'BC', 'b_c', 'a', 'A', 'class', 'Class']
    expect(names(refNames)).toEqual(names([...refNames]))
    expect(new Set(identifiers(refNames, 'camel')).size).toBe(refNames.length)
    expect(new Set(identifiers(refNames, 'pascal')).size).toBe(refNames.length)
  })
})

describe('distinctWriteViewNames', () => {
  it('names a view <name> Writable, with a counter past the names models already have', () => {
    const models = distinctModelNames(['Account', 'AccountWritable', 'pet.owner', 'Pet Owner'])
    const views = distinctWriteViewNames(models, ['Account', 'pet.owner', 'Pet Owner'])
    expect(Object.fromEntries(views)).toEqual({
      Account: 'Account Writable 2',
      'pet.owner': 'pet.owner Writable',
      'Pet Owner': 'Pet Owner 2 Writable',
    })
    const identifiers = [...views.values()].map((name) => toIdentifierName(name, 'camel'))
    expect(identifiers).toEqual(['accountWritable2', 'petOwnerWritable', 'petOwner2Writable'])
  })
})

describe('claimNames', () => {
  const model = (refNames: string[]) =>
    ({ components: { schemas: Object.fromEntries(refNames.map((name) => [name, {}])) } }) as never

  it('keeps a request that collides with nothing, and counts past models and earlier requests', () => {
    const claimed = claimNames(model(['Pet', 'create-pet body']), [
      'CreatePetResponse',
      'CreatePetBody',
      'createPetResponse',
      'CreatePetBody',
    ])
    expect(claimed).toEqual([
      'CreatePetResponse',
      'CreatePetBody 2',
      'createPetResponse 2',
      'CreatePetBody 3',
    ])
    expect(claimed.map((name) => toIdentifierName(name, 'pascal'))).toEqual([
      'CreatePetResponse',
      'CreatePetBody2',
      'CreatePetResponse2',
      'CreatePetBody3',
    ])
  })
})

describe('distinctNames for operations (camelCase)', () => {
  it('lets the text already in camelCase keep it, and tells equal texts apart by order', () => {
    expect(distinctNames(['get-pet', 'getPet', 'get /a-b', 'get /a_b'], 'camel')).toEqual([
      'get-pet 2',
      'getPet',
      'get /a-b',
      'get /a_b 2',
    ])
    // Two operations with one operationId (an invalid document, but a real one) stay apart.
    expect(distinctNames(['listPets', 'listPets'], 'camel')).toEqual(['listPets', 'listPets 2'])
  })
})
