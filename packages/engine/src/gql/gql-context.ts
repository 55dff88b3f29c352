import { Kind, type ASTNode, type DirectiveNode, type TypeNode } from 'graphql'
import { GQL_ISSUES, type IssueKind, type IssueLog } from '../issues/index.js'
import type { Schema } from '../model/schema.js'
import { componentRef } from '../refs/pointer.js'
import type { SdlIndex } from './sdl-index.js'
import { positionOf } from './sdl-parser.js'

/** A named type a unit uses, checked once every type is mapped. */
export type TypeUse = {
  readonly name: string
  /** Where the use is written (`User:posts`, `Query:user:args:id`). */
  readonly path: readonly string[]
  readonly node: ASTNode
}

export type Position = 'input' | 'output'

const BUILT_IN: Readonly<Record<string, () => Schema>> = {
  Int: () => ({ kind: 'integer', format: 'int32', nullable: true }),
  Float: () => ({ kind: 'number', format: 'float', nullable: true }),
  String: () => ({ kind: 'string', nullable: true }),
  Boolean: () => ({ kind: 'boolean', nullable: true }),
  ID: () => ({ kind: 'string', format: 'id', nullable: true }),
}

/** Directives graphql-js defines; they are part of the language, not something dropped. */
export const SPECIFIED_DIRECTIVES: ReadonlySet<string> = new Set([
  'skip',
  'include',
  'deprecated',
  'specifiedBy',
  'oneOf',
])

/** Mapping state for one SDL: the index, the issue log, and the type uses of the current unit. */
export class GqlContext {
  uses: TypeUse[] = []

  constructor(
    readonly index: SdlIndex,
    readonly issues: IssueLog,
  ) {}

  report(
    kind: IssueKind,
    path: readonly string[],
    message: string,
    node?: ASTNode,
    cause?: string,
  ): void {
    this.issues.add(kind, path, message, cause, positionOf(node))
  }

  /** DROPPED_DIRECTIVE for every applied directive other than the specified ones. */
  reportDirectives(
    directives: readonly DirectiveNode[] | undefined,
    path: readonly string[],
  ): void {
    for (const directive of directives ?? []) {
      const name = directive.name.value
      if (SPECIFIED_DIRECTIVES.has(name)) continue
      this.report(
        GQL_ISSUES.droppedDirective,
        path,
        `Applied directive '@${name}' is not represented in generated output.`,
        directive,
      )
    }
  }

  /**
   * The schema for a field, argument or input-field type. `T!` is required and not nullable;
   * lists become arrays; `[[T]]` collapses to unknown (NESTED_LIST_LOSSY); built-in and custom
   * scalars are inlined; enums and composite types are refs. A type that cannot stand in this
   * position is UNKNOWN_TYPE_KIND and falls back to unknown.
   */
  typeSchema(type: TypeNode, path: readonly string[], position: Position): Schema {
    const nullable = type.kind !== Kind.NON_NULL_TYPE
    const inner = type.kind === Kind.NON_NULL_TYPE ? type.type : type
    if (inner.kind === Kind.LIST_TYPE) {
      const item = inner.type.kind === Kind.NON_NULL_TYPE ? inner.type.type : inner.type
      if (item.kind === Kind.LIST_TYPE) {
        this.report(
          GQL_ISSUES.nestedListLossy,
          path,
          `Nested list type ${printType(type)} collapsed to an unknown value.`,
          type,
        )
        return Object.freeze({ kind: 'unknown', nullable })
      }
      return Object.freeze({
        kind: 'array',
        nullable,
        items: this.typeSchema(inner.type, path, position),
      })
    }
    return this.namedSchema(inner.name.value, nullable, path, inner, position)
  }

  private namedSchema(
    name: string,
    nullable: boolean,
    path: readonly string[],
    node: ASTNode,
    position: Position,
  ): Schema {
    const builtIn = BUILT_IN[name]
    if (builtIn) return Object.freeze({ ...builtIn(), nullable })
    const definition = this.index.types.get(name)
    if (definition?.kind === Kind.SCALAR_TYPE_DEFINITION)
      return Object.freeze({ kind: 'string', format: name, nullable })
    this.uses.push({ name, path: [...path], node })
    if (!definition)
      return Object.freeze({
        kind: 'ref',
        $ref: componentRef('schemas', name),
        refName: name,
        nullable,
      })
    const fits =
      definition.kind === Kind.ENUM_TYPE_DEFINITION ||
      (position === 'input'
        ? definition.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION
        : definition.kind !== Kind.INPUT_OBJECT_TYPE_DEFINITION)
    if (!fits) {
      const kind = definition.kind
        .replace('TypeDefinition', '')
        .replace(/([a-z])([A-Z])/g, '$1 $2')
        .toLowerCase()
      this.report(
        GQL_ISSUES.unknownTypeKind,
        path,
        `Type '${name}' is ${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} type, which cannot be used as an ${position} type; fell back to unknown.`,
        node,
        `${name} cannot be an ${position} type`,
      )
      return Object.freeze({ kind: 'unknown', nullable })
    }
    return Object.freeze({
      kind: 'ref',
      $ref: componentRef('schemas', name),
      refName: name,
      nullable,
    })
  }
}

function printType(type: TypeNode): string {
  if (type.kind === Kind.NAMED_TYPE) return type.name.value
  if (type.kind === Kind.LIST_TYPE) return `[${printType(type.type)}]`
  return `${printType(type.type)}!`
}
