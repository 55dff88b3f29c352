import type { HttpOperation, Schema } from '@svc/engine'
import {
  schemaView,
  toIdentifierName,
  type GenerateContext,
  type ModelView,
} from '@svc/engine/generate'
import {
  modelTypes,
  printDeclared,
  printDoc,
  printType,
  type NameModel,
  type TypeDependency,
} from '@svc/gen-typescript'
import { modelRefs, printZodDeclaration, type Dependency } from '@svc/gen-zod'
import { operationNames } from './operation-names.js'

/** Where the operations' own types and schemas go: beside the models'. */
const TYPES_FILE = 'types.ts'
const ZOD_FILE = 'zod.ts'

/** `body` for the request body; a response's status key (`200`, `4XX`, `default`) otherwise. */
export type Role = 'body' | (string & {})

/**
 * Names what a request body or a response's JSON data is: a model by its own name, a plain
 * string, number or boolean by its keyword, anything else (an array of models, an inline object,
 * an enum) by a type of the operation's own, `CreatePetBody` or `CreatePetResponse404`, written
 * to `types.ts`. With validation, the zod schema that checks it likewise: the model's schema, or
 * the operation's own (`createPetBodySchema`, for a plain string too) written to `zod.ts`. They
 * go beside the models', not into `client.ts`, so that code that only types or validates data
 * can import them without the client, and `client.ts` stays the functions and their runtime.
 */
export type NameData = {
  type(schema: Schema, role: Role): string
  /** Undefined when the operation is not validated; gives undefined for nothing to check. */
  readonly schema: ((schema: Schema, role: Role) => string | undefined) | undefined
}

export function dataNamer(input: {
  readonly context: GenerateContext
  readonly operation: HttpOperation
  readonly variant: string
  readonly validate: boolean
  readonly nameModel: NameModel
  readonly nameSchema: (refName: string, view?: ModelView) => string
  readonly dependsOn: Dependency[]
}): NameData {
  const { context, operation, variant, nameModel, nameSchema, dependsOn } = input
  const names = operationNames(context.model, operation, variant)
  const nameOf = (role: Role) => (role === 'body' ? names.body : names.response(role))
  const where = `${operation.method.toUpperCase()} ${operation.path}`
  const model = (schema: Schema) => (schema.kind === 'ref' && !schema.nullable ? schema : undefined)
  // A body is sent, so it is typed and checked by the write view; a response by the read view.
  const viewOf = (role: Role): ModelView => (role === 'body' ? 'write' : 'read')
  return {
    type(declared, role) {
      const view = viewOf(role)
      const schema = schemaView(context.model, declared, view)
      const ref = model(schema)
      if (ref !== undefined) return nameModel(ref.refName, view)
      if (unchecked(schema)) return 'unknown'
      // `string` says more than a name for it would.
      if (primitive(schema)) return printType(schema, (refName) => nameModel(refName, view))
      const name = nameOf(role)
      context.define({
        name,
        kind: 'type',
        exportPath: TYPES_FILE,
        build: () => {
          const types: TypeDependency[] = []
          const declaration = `export type ${name} =`
          const nameType = modelTypes(context, types, view)
          const type = printDeclared(schema, nameType, { indent: '' }, declaration.length)
          // Where the type comes from, then what the schema says of itself.
          const own = schema.description?.trim()
          const description = `${where}: ${describe(role)}.${own ? `\n\n${own}` : ''}`
          const doc = printDoc({ ...schema, description }, '')
          return { code: `${doc}${declaration}${type}`, dependsOn: types }
        },
      })
      dependsOn.push({ name, exportPath: TYPES_FILE, typeOnly: true })
      return name
    },
    schema: input.validate
      ? (declared, role) => {
          const view = viewOf(role)
          const schema = schemaView(context.model, declared, view)
          const ref = model(schema)
          if (ref !== undefined) return nameSchema(ref.refName, view)
          if (unchecked(schema)) return undefined
          const name = toIdentifierName(`${nameOf(role)}Schema`, 'camel')
          context.define({
            name,
            kind: 'value',
            exportPath: ZOD_FILE,
            build: () => {
              const schemas: Dependency[] = []
              const refs = modelRefs(context, schemas, undefined, view)
              const declaration = printZodDeclaration(`export const ${name} = `, schema, refs, {
                pure: true,
              })
              return {
                code: `/** ${where}: ${describe(role)}. */\n${declaration}`,
                dependsOn: schemas,
                imports: [{ module: 'zod', name: 'z' }],
              }
            },
          })
          dependsOn.push({ name, exportPath: ZOD_FILE })
          return name
        }
      : undefined,
  }
}

/** A schema that accepts anything (a media type without one): nothing to name or check. */
function unchecked(schema: Schema): boolean {
  return schema.kind === 'unknown' && schema.const === undefined
}

/** A string, number or boolean of any value: its type is one keyword. */
function primitive(schema: Schema): boolean {
  return (
    ['string', 'integer', 'number', 'boolean'].includes(schema.kind) &&
    schema.const === undefined &&
    !('enum' in schema && schema.enum !== undefined)
  )
}

function describe(role: Role): string {
  if (role === 'body') return 'the request body'
  return role === 'default' ? 'the default response' : `the ${role.toUpperCase()} response`
}
