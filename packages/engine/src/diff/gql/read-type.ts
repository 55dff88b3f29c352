import {
  DEFAULT_DEPRECATION_REASON,
  Kind,
  type ConstDirectiveNode,
  type DirectiveDefinitionNode,
  type EnumTypeDefinitionNode,
  type EnumTypeExtensionNode,
  type EnumValueDefinitionNode,
  type FieldDefinitionNode,
  type InputObjectTypeDefinitionNode,
  type InputObjectTypeExtensionNode,
  type InputValueDefinitionNode,
  type InterfaceTypeDefinitionNode,
  type InterfaceTypeExtensionNode,
  type NameNode,
  type ObjectTypeDefinitionNode,
  type ObjectTypeExtensionNode,
  type TypeDefinitionNode,
  type TypeExtensionNode,
  type UnionTypeDefinitionNode,
  type UnionTypeExtensionNode,
} from 'graphql'
import type {
  AppliedDirective,
  DirectiveShape,
  EnumValueShape,
  FieldShape,
  InputValueShape,
  TypeContents,
  TypeShape,
} from './schema-shape.js'
import { typeText, valueText } from './type-expressions.js'

/**
 * Reads one type definition with its extensions. They must be of the definition's kind, so each
 * case may read them as such.
 */
export function readType(
  definition: TypeDefinitionNode,
  extensions: TypeExtensionNode[],
): TypeShape {
  const directives =
    extensions.length === 0
      ? definition.directives
      : [definition, ...extensions].flatMap((part) => part.directives ?? [])
  return {
    description: definition.description?.value,
    directives: appliedDirectives(directives),
    ...readContents(definition, extensions, directives),
  }
}

/** What a type holds, by kind; `directives` are those of the definition and its extensions. */
function readContents(
  definition: TypeDefinitionNode,
  extensions: TypeExtensionNode[],
  directives: readonly ConstDirectiveNode[] | undefined,
): TypeContents {
  switch (definition.kind) {
    case Kind.OBJECT_TYPE_DEFINITION:
    case Kind.INTERFACE_TYPE_DEFINITION: {
      const parts = [definition, ...extensions] as (
        | ObjectTypeDefinitionNode
        | ObjectTypeExtensionNode
        | InterfaceTypeDefinitionNode
        | InterfaceTypeExtensionNode
      )[]
      return {
        kind: definition.kind === Kind.OBJECT_TYPE_DEFINITION ? 'object' : 'interface',
        fields: byName(
          parts.flatMap((part) => part.fields ?? []),
          readField,
        ),
        interfaces: new Set(parts.flatMap((part) => part.interfaces ?? []).map(nameOf)),
      }
    }
    case Kind.INPUT_OBJECT_TYPE_DEFINITION: {
      const parts = [definition, ...extensions] as (
        InputObjectTypeDefinitionNode | InputObjectTypeExtensionNode
      )[]
      return {
        kind: 'input',
        fields: byName(
          parts.flatMap((part) => part.fields ?? []),
          readInput,
        ),
        oneOf: directives?.some((directive) => directive.name.value === 'oneOf') ?? false,
      }
    }
    case Kind.ENUM_TYPE_DEFINITION: {
      const parts = [definition, ...extensions] as (
        EnumTypeDefinitionNode | EnumTypeExtensionNode
      )[]
      const values = parts.flatMap((part) => part.values ?? [])
      return { kind: 'enum', values: byName(values, readEnumValue) }
    }
    case Kind.UNION_TYPE_DEFINITION: {
      const parts = [definition, ...extensions] as (
        UnionTypeDefinitionNode | UnionTypeExtensionNode
      )[]
      return {
        kind: 'union',
        members: new Set(parts.flatMap((part) => part.types ?? []).map(nameOf)),
      }
    }
    case Kind.SCALAR_TYPE_DEFINITION: {
      const specifiedBy = directives?.find((directive) => directive.name.value === 'specifiedBy')
      const url = specifiedBy?.arguments?.find((arg) => arg.name.value === 'url')?.value
      return {
        kind: 'scalar',
        specifiedBy: url && (url.kind === Kind.STRING ? url.value : valueText(url)),
      }
    }
  }
}

function readField(field: FieldDefinitionNode): FieldShape {
  return {
    description: field.description?.value,
    directives: appliedDirectives(field.directives),
    type: field.type,
    typeText: typeText(field.type),
    deprecation: deprecationOf(field.directives),
    args: byName(field.arguments ?? [], readInput),
  }
}

function readInput(value: InputValueDefinitionNode): InputValueShape {
  return {
    description: value.description?.value,
    directives: appliedDirectives(value.directives),
    type: value.type,
    typeText: typeText(value.type),
    defaultValue: value.defaultValue && valueText(value.defaultValue),
    deprecation: deprecationOf(value.directives),
  }
}

function readEnumValue(value: EnumValueDefinitionNode): EnumValueShape {
  return {
    description: value.description?.value,
    directives: appliedDirectives(value.directives),
    deprecation: deprecationOf(value.directives),
  }
}

export function readDirective(definition: DirectiveDefinitionNode): DirectiveShape {
  return {
    description: definition.description?.value,
    args: byName(definition.arguments ?? [], readInput),
    locations: new Set(definition.locations.map(nameOf)),
    repeatable: definition.repeatable,
  }
}

/** The `@deprecated` reason, with graphql-js's default when it gives none. */
function deprecationOf(directives: readonly ConstDirectiveNode[] | undefined): string | undefined {
  const deprecated = directives?.find((directive) => directive.name.value === 'deprecated')
  if (!deprecated) return undefined
  const reason = deprecated.arguments?.find((arg) => arg.name.value === 'reason')?.value
  return reason?.kind === Kind.STRING ? reason.value : DEFAULT_DEPRECATION_REASON
}

/** Directives the diff reads on their own: deprecation, scalar specifications and `@oneOf`. */
const BUILT_IN: ReadonlySet<string> = new Set(['deprecated', 'specifiedBy', 'oneOf'])

const NO_DIRECTIVES: readonly AppliedDirective[] = []

function appliedDirectives(
  directives: readonly ConstDirectiveNode[] | undefined,
): readonly AppliedDirective[] {
  if (directives === undefined || directives.length === 0) return NO_DIRECTIVES
  let applied: AppliedDirective[] | undefined
  for (const directive of directives) {
    if (BUILT_IN.has(directive.name.value)) continue
    const args = (directive.arguments ?? [])
      .map((arg) => `${arg.name.value}: ${valueText(arg.value)}`)
      .sort()
    const text = `@${directive.name.value}${args.length > 0 ? `(${args.join(', ')})` : ''}`
    ;(applied ??= []).push({ name: directive.name.value, text })
  }
  return applied ?? NO_DIRECTIVES
}

// Most fields take no arguments: one shared empty map spares the collector thousands of them.
const NONE: ReadonlyMap<string, never> = new Map<string, never>()

function byName<N extends { readonly name: NameNode }, T>(
  nodes: readonly N[],
  read: (node: N) => T,
): ReadonlyMap<string, T> {
  if (nodes.length === 0) return NONE
  const map = new Map<string, T>()
  for (const node of nodes) if (!map.has(node.name.value)) map.set(node.name.value, read(node))
  return map
}

function nameOf(node: { readonly name: NameNode } | NameNode): string {
  return 'name' in node ? node.name.value : node.value
}
