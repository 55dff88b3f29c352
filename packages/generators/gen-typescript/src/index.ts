/**
 * @module @svc/gen-typescript: a TypeScript type for every model (component schema) of an API
 * description, in `types.ts`; recursive models refer to themselves by name. The main type is what
 * a response holds (`writeOnly` properties optional); a model with `readOnly` properties, or one
 * that reaches such a model, also gets `<Name>Writable` for request bodies, without them.
 */
import {
  toModelEntry,
  type AnyGeneratorEntry,
  type GenerateContext,
  type ModelView,
} from '@svc/engine/generate'
import { carriesProperties, schemaOfModel } from './discriminators.js'
import { printDoc } from './print-doc.js'
import { printDeclared, type NameModel } from './print-type.js'

export const typescriptEntry = toModelEntry({
  id: '@svc/gen-typescript',
  toExportPath: () => 'types.ts',
  transform({ context, subject, name, exportPath }) {
    return context.define({
      name,
      kind: 'type',
      exportPath,
      build: () => {
        const dependsOn: TypeDependency[] = []
        const schema = schemaOfModel(context.model, subject.refName, subject.schema)
        const declaration = `export type ${name} =`
        const nameModel = modelTypes(context, dependsOn, subject.view)
        const type = printDeclared(schema, nameModel, { indent: '' }, declaration.length)
        return { code: `${printDoc(schema, '')}${declaration}${type}`, dependsOn }
      },
    })
  },
})

/** A type-only import of another model's type. */
export type TypeDependency = { name: string; exportPath: string; typeOnly: true }

/**
 * How a type refers to the models' types in one view, recording each as a dependency, and which
 * models can carry a discriminator property: the namer every printed type of a run uses.
 */
export function modelTypes(
  context: GenerateContext,
  dependsOn: TypeDependency[],
  view?: ModelView,
): NameModel {
  return Object.assign(
    (refName: string) => {
      const key = context.insertModel(typescriptEntry, refName, view)
      dependsOn.push({ name: key.identifier.name, exportPath: key.exportPath, typeOnly: true })
      return key.identifier.name
    },
    { carriesProperties: (refName: string) => carriesProperties(context.model, refName) },
  )
}

export const generators: readonly AnyGeneratorEntry[] = [typescriptEntry]

export { printDeclared, printType, type Layout, type NameModel } from './print-type.js'
export { printDoc, printTextDoc } from './print-doc.js'
export { carriesProperties, memberValues, schemaOfModel } from './discriminators.js'
export { extraKeys, onlyKeyPattern } from './pattern-properties.js'
