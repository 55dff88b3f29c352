/**
 * @module @svc/gen-typescript: a TypeScript type for every model (component schema) of an API
 * description, in `types.ts`; recursive models refer to themselves by name.
 */
import { toModelEntry, type AnyGeneratorEntry } from '@svc/engine/generate'
import { schemaOfModel } from './discriminators.js'
import { printType } from './print-type.js'

export const typescriptEntry = toModelEntry({
  id: '@svc/gen-typescript',
  toExportPath: () => 'types.ts',
  transform({ context, subject, name, exportPath }) {
    return context.define({
      name,
      kind: 'type',
      exportPath,
      build: () => {
        const dependsOn: { name: string; exportPath: string; typeOnly: true }[] = []
        const schema = schemaOfModel(context.model, subject.refName, subject.schema)
        const type = printType(schema, (refName) => {
          const key = context.insertModel(typescriptEntry, refName)
          dependsOn.push({ name: key.identifier.name, exportPath: key.exportPath, typeOnly: true })
          return key.identifier.name
        })
        return { code: `export type ${name} = ${type}`, dependsOn }
      },
    })
  },
})

export const generators: readonly AnyGeneratorEntry[] = [typescriptEntry]

export { printType, type NameModel } from './print-type.js'
export { memberValues, schemaOfModel } from './discriminators.js'
