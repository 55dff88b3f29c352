/**
 * @module @svc/gen-zod: a zod 4 schema for every model (component schema) of an API description,
 * in `zod.ts`. Schemas that refer back to themselves reach each other through `z.lazy` and are
 * typed with the model's TypeScript type from `@svc/gen-typescript`, which TypeScript needs to
 * type a recursive constant.
 */
import {
  toIdentifierName,
  toModelEntry,
  variantSuffix,
  type AnyGeneratorEntry,
} from '@svc/engine/generate'
import { printDoc, schemaOfModel, typescriptEntry } from '@svc/gen-typescript'
import { cyclesOf } from './cycles.js'
import { printZodDeclaration, type ModelRefs } from './print-zod.js'

type Dependency = { name: string; exportPath: string; typeOnly?: boolean }

export const zodEntry = toModelEntry({
  id: '@svc/gen-zod',
  toExportPath: () => 'zod.ts',
  toName: (subject, variant) =>
    `${toIdentifierName(subject.name, 'camel')}Schema${variantSuffix(variant)}`,
  transform({ context, subject, name, exportPath }) {
    return context.define({
      name,
      kind: 'value',
      exportPath,
      build: () => {
        const cycles = cyclesOf(context.model)
        const dependsOn: Dependency[] = []
        const schema = schemaOfModel(context.model, subject.refName, subject.schema)
        const refs: ModelRefs = {
          name: (refName) => {
            const key = context.insertModel(zodEntry, refName)
            const lazy = cycles.sameCycle(refName, subject.refName)
            // A reference inside a cycle is read when parsing, not at module load: no ordering.
            dependsOn.push({
              name: key.identifier.name,
              exportPath: key.exportPath,
              typeOnly: lazy,
            })
            return lazy ? `z.lazy(() => ${key.identifier.name})` : key.identifier.name
          },
          isObject: (refName) => {
            // A recursive constant is typed `z.ZodType`, a lazy one is `z.lazy`: neither extends.
            if (cycles.recursive(refName) || cycles.sameCycle(refName, subject.refName))
              return false
            const target = context.model.components.schemas[refName]
            return (
              target?.kind === 'object' &&
              !target.nullable &&
              target.const === undefined &&
              Object.keys(target.properties).length > 0
            )
          },
        }
        let annotation = ''
        if (cycles.recursive(subject.refName)) {
          const type = context.insertModel(typescriptEntry, subject.refName)
          dependsOn.push({
            name: type.identifier.name,
            exportPath: type.exportPath,
            typeOnly: true,
          })
          annotation = `: z.ZodType<${type.identifier.name}>`
        }
        const declaration = printZodDeclaration(
          `export const ${name}${annotation} = `,
          schema,
          refs,
        )
        return {
          code: `${printDoc(schema, '')}${declaration}`,
          dependsOn,
          imports: [{ module: 'zod', name: 'z' }],
        }
      },
    })
  },
})

export const generators: readonly AnyGeneratorEntry[] = [zodEntry]
export { printZod, printZodDeclaration, type ModelRefs, type NameModel } from './print-zod.js'
