/**
 * @module @svc/gen-zod: a zod 4 schema for every model (component schema) of an API description,
 * in `zod.ts`. Schemas that refer back to themselves reach each other through `z.lazy` and are
 * typed with the model's TypeScript type from `@svc/gen-typescript`, which TypeScript needs to
 * type a recursive constant. Like the types, each model has a read view (`petSchema`, for
 * responses) and, when it needs one, a write view (`petWritableSchema`, for request bodies).
 */
import {
  toIdentifierName,
  toModelEntry,
  variantSuffix,
  type AnyGeneratorEntry,
  type GenerateContext,
  type ModelView,
} from '@svc/engine/generate'
import { carriesProperties, printDoc, schemaOfModel, typescriptEntry } from '@svc/gen-typescript'
import { cyclesOf } from './cycles.js'
import { printZodDeclaration, type ModelRefs } from './print-zod.js'

export type Dependency = { name: string; exportPath: string; typeOnly?: boolean }

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
        const dependsOn: Dependency[] = []
        const schema = schemaOfModel(context.model, subject.refName, subject.schema)
        const refs = modelRefs(context, dependsOn, subject.refName, subject.view)
        let annotation = ''
        if (cyclesOf(context.model).recursive(subject.refName)) {
          const type = context.insertModel(typescriptEntry, subject.refName, subject.view)
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
          { pure: true },
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

/**
 * How a schema refers to the models' schemas, recording each as a dependency. Inside the model
 * `from`, a reference to a model of the same cycle goes through `z.lazy`: it is read when
 * parsing, not when the module loads, so it needs no ordering.
 */
export function modelRefs(
  context: GenerateContext,
  dependsOn: Dependency[],
  from?: string,
  view?: ModelView,
): ModelRefs {
  const cycles = cyclesOf(context.model)
  const inCycle = (refName: string) => from !== undefined && cycles.sameCycle(refName, from)
  return {
    name: (refName) => {
      const key = context.insertModel(zodEntry, refName, view)
      const lazy = inCycle(refName)
      dependsOn.push({ name: key.identifier.name, exportPath: key.exportPath, typeOnly: lazy })
      return lazy ? `z.lazy(() => ${key.identifier.name})` : key.identifier.name
    },
    carriesProperties: (refName) => carriesProperties(context.model, refName),
    isObject: (refName) => {
      // A recursive constant is typed `z.ZodType`, a lazy one is `z.lazy`: neither extends.
      if (cycles.recursive(refName) || inCycle(refName)) return false
      const target = context.model.components.schemas[refName]
      return (
        target?.kind === 'object' &&
        !target.nullable &&
        target.const === undefined &&
        Object.keys(target.properties).length > 0
      )
    },
  }
}

export const generators: readonly AnyGeneratorEntry[] = [zodEntry]
export { printZod, printZodDeclaration, type ModelRefs, type NameModel } from './print-zod.js'
