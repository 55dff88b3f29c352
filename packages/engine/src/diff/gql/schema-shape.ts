import {
  Kind,
  type DocumentNode,
  type TypeDefinitionNode,
  type TypeExtensionNode,
  type TypeNode,
} from 'graphql'
import { declaredRoots, indexSdl } from '../../gql/sdl-index.js'
import type { GraphqlRootKind } from '../../model/operation.js'
import { readDirective, readType } from './read-type.js'

/**
 * A directive applied to a definition, other than the built-ins the diff reads on their own
 * (`@deprecated`, `@specifiedBy`, `@oneOf`).
 */
export type AppliedDirective = {
  readonly name: string
  /** As SDL prints it, arguments sorted by name and object fields by key: `@auth(role: "admin")`. */
  readonly text: string
}

/** What every definition carries besides its meaning: its description and applied directives. */
export type Annotated = {
  readonly description: string | undefined
  readonly directives: readonly AppliedDirective[]
}

/** An argument or input field. `deprecation` is the reason, when it is deprecated. */
export type InputValueShape = Annotated & {
  readonly type: TypeNode
  readonly typeText: string
  readonly defaultValue: string | undefined
  readonly deprecation: string | undefined
}

export type FieldShape = Annotated & {
  readonly type: TypeNode
  readonly typeText: string
  readonly deprecation: string | undefined
  readonly args: ReadonlyMap<string, InputValueShape>
}

export type EnumValueShape = Annotated & { readonly deprecation: string | undefined }

/** A named type with its extensions folded in; order is gone. */
export type TypeShape = Annotated & TypeContents

/** What a type holds, by kind. */
export type TypeContents =
  | {
      readonly kind: 'object' | 'interface'
      readonly fields: ReadonlyMap<string, FieldShape>
      readonly interfaces: ReadonlySet<string>
    }
  | {
      readonly kind: 'input'
      readonly fields: ReadonlyMap<string, InputValueShape>
      /** Marked `@oneOf`: exactly one field must be set. */
      readonly oneOf: boolean
    }
  | { readonly kind: 'enum'; readonly values: ReadonlyMap<string, EnumValueShape> }
  | { readonly kind: 'union'; readonly members: ReadonlySet<string> }
  | { readonly kind: 'scalar'; readonly specifiedBy: string | undefined }

export type DirectiveShape = {
  readonly description: string | undefined
  readonly args: ReadonlyMap<string, InputValueShape>
  readonly locations: ReadonlySet<string>
  readonly repeatable: boolean
}

/** What of an SDL document a diff compares. */
export type SchemaShape = {
  readonly types: ReadonlyMap<string, TypeShape>
  readonly directives: ReadonlyMap<string, DirectiveShape>
  readonly roots: Readonly<Partial<Record<GraphqlRootKind, string>>>
  /** The description of `schema { }`, when it has one. */
  readonly description: string | undefined
}

/** The definition kind each extension kind extends. */
export const EXTENDS: Readonly<Record<TypeExtensionNode['kind'], TypeDefinitionNode['kind']>> = {
  [Kind.OBJECT_TYPE_EXTENSION]: Kind.OBJECT_TYPE_DEFINITION,
  [Kind.INTERFACE_TYPE_EXTENSION]: Kind.INTERFACE_TYPE_DEFINITION,
  [Kind.UNION_TYPE_EXTENSION]: Kind.UNION_TYPE_DEFINITION,
  [Kind.ENUM_TYPE_EXTENSION]: Kind.ENUM_TYPE_DEFINITION,
  [Kind.INPUT_OBJECT_TYPE_EXTENSION]: Kind.INPUT_OBJECT_TYPE_DEFINITION,
  [Kind.SCALAR_TYPE_EXTENSION]: Kind.SCALAR_TYPE_DEFINITION,
}

/**
 * Reads the types, directives and root types of a parsed SDL document. Invalid definitions are
 * read as far as they go: the first of two same-named definitions, fields or arguments wins, an
 * extension of another kind or of no definition is ignored, and unknown type names stay names.
 */
export function readSchema(document: DocumentNode): SchemaShape {
  const index = indexSdl(document)
  const types = new Map<string, TypeShape>()
  for (const [name, definition] of index.types) {
    const extensions = (index.extensions.get(name) ?? []).filter(
      (extension) => EXTENDS[extension.kind] === definition.kind,
    )
    types.set(name, readType(definition, extensions))
  }
  const directives = new Map<string, DirectiveShape>()
  for (const [name, definition] of index.directives) directives.set(name, readDirective(definition))
  const definition = index.schema.find((node) => node.kind === Kind.SCHEMA_DEFINITION)
  return {
    types,
    directives,
    roots: declaredRoots(index),
    description:
      definition?.kind === Kind.SCHEMA_DEFINITION ? definition.description?.value : undefined,
  }
}
