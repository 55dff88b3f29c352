import {
  Kind,
  type FieldDefinitionNode,
  type InputValueDefinitionNode,
  type TypeDefinitionNode,
  type TypeNode,
  type ValueNode,
} from 'graphql'
import type { InvalidDefinition } from './validation.js'
import type { SdlIndex } from './sdl-index.js'

const BUILT_IN: ReadonlySet<string> = new Set(['Int', 'Float', 'String', 'Boolean', 'ID'])
/** Deeper default values are mapped in any case: reading them recurses. */
const SAFE_VALUE_DEPTH = 16

/**
 * Which units (named types, root fields) mapping could give an error-level issue: one that names
 * a type that is missing, invalid, a root type or of a kind that cannot stand where it is
 * (UNKNOWN_TYPE_KIND, INVALID_DEPENDENCY_REF), an interface implemented by such a type, or a unit
 * with a deeply nested default value (a mapping that throws is INVALID_TYPE_DEFINITION). Every
 * other unit maps without one, so a caller that wants only the errors maps these alone.
 */
export function errorProne(
  index: SdlIndex,
  invalid: ReadonlyMap<string, InvalidDefinition>,
  rootNames: ReadonlySet<string>,
) {
  const fits = (name: string, position: 'input' | 'output'): boolean => {
    if (BUILT_IN.has(name)) return true
    const definition = index.types.get(name)
    if (!definition || invalid.has(name) || rootNames.has(name)) return false
    if (definition.kind === Kind.SCALAR_TYPE_DEFINITION) return true
    if (definition.kind === Kind.ENUM_TYPE_DEFINITION) return true
    return (definition.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION) === (position === 'input')
  }
  const inputOk = (value: InputValueDefinitionNode) =>
    fits(namedType(value.type), 'input') && (!value.defaultValue || shallow(value.defaultValue))
  const fieldOk = (field: FieldDefinitionNode) =>
    fits(namedType(field.type), 'output') && (field.arguments ?? []).every(inputOk)
  return {
    type(definition: TypeDefinitionNode): boolean {
      const name = definition.name.value
      const parts = [definition, ...(index.extensions.get(name) ?? [])]
      for (const part of parts) {
        if ('fields' in part)
          for (const field of part.fields ?? [])
            if (field.kind === Kind.INPUT_VALUE_DEFINITION ? !inputOk(field) : !fieldOk(field))
              return true
        if ('types' in part)
          for (const member of part.types ?? []) if (!fits(member.name.value, 'output')) return true
      }
      if (definition.kind === Kind.INTERFACE_TYPE_DEFINITION)
        for (const implementation of index.implementations.get(name) ?? [])
          if (!fits(implementation, 'output')) return true
      return false
    },
    field: (field: FieldDefinitionNode): boolean => !fieldOk(field),
  }
}

function namedType(type: TypeNode): string {
  return type.kind === Kind.NAMED_TYPE ? type.name.value : namedType(type.type)
}

/** Whether a value nests lists and objects less than {@link SAFE_VALUE_DEPTH} deep. */
function shallow(value: ValueNode): boolean {
  let level: ValueNode[] = [value]
  for (let depth = 0; level.length > 0; depth++) {
    if (depth >= SAFE_VALUE_DEPTH) return false
    level = level.flatMap((node) =>
      node.kind === Kind.LIST
        ? [...node.values]
        : node.kind === Kind.OBJECT
          ? node.fields.map((field) => field.value)
          : [],
    )
  }
  return true
}
