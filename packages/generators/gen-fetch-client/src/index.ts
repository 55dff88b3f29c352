/**
 * @module @svc/gen-fetch-client: a typed function per operation of an OpenAPI description, in
 * `client.ts`, that sends its request with `fetch`. Its one argument holds the `path`, `query`,
 * `headers` and `cookies` parameters and the `body`; it resolves to a union of the documented
 * responses discriminated by `status`, their bodies typed by `@svc/gen-typescript` (a body to
 * send by a model's write view, `<Name>Writable`, when it has one; a response by the main model,
 * its read view). The runtime
 * the functions share (`ClientOptions`, `sendRequest`) is written once, in the same file, with
 * `serverUrl` for the document's servers, an `auth` option per security scheme, `middleware`
 * hooks, the `encoding` of form and multipart bodies and typed response headers; a missing path
 * parameter rejects the call before it is sent. docs/generators/fetch-client.md describes them.
 *
 * A body or response whose JSON schema is not a model's (an array of models, an inline object) is
 * typed by a type of the operation's own in `types.ts`: `CreatePetBody`, `CreatePetResponse` (the
 * data of the success response), `CreatePetResponse404`, `CreatePetResponseDefault`, named apart
 * from the models and the other operations (`operation-names.ts`).
 *
 * With `validate` (per operation variant, or `_generator.validate` for all), every JSON response
 * with a schema (each documented status, range and `default`) is parsed with its zod schema: a
 * model's from `@svc/gen-zod`, or the operation's own in `zod.ts` (`createPetResponse404Schema`);
 * a mismatch rejects the call with zod's error. A JSON body is checked the same way before it is
 * sent, and a bad one rejects the call without a request. A body of another content type (a
 * proxy's HTML error page), or JSON text that does not parse, is returned as it came, unchecked.
 * Each schema constant is pure to a bundler, so a call bundles only the schemas it uses.
 */
import {
  toIdentifierName,
  toOperationEntry,
  variantSuffix,
  type AnyGeneratorEntry,
  type GenerateContext,
  type ModelView,
} from '@svc/engine/generate'
import { typescriptEntry } from '@svc/gen-typescript'
import { zodEntry } from '@svc/gen-zod'
import { enrichmentSchema, validateByDefault } from './enrichment.js'
import { dataNamer } from './named-types.js'
import { printOperation } from './print-operation.js'
import { GLOBAL_TYPES, RUNTIME_TYPES, RUNTIME_VALUES, defineRuntime } from './runtime.js'

type Dependency = { name: string; exportPath: string; typeOnly?: boolean }

/** Model names that would shadow a name the client's file relies on. */
const TAKEN_TYPES = new Set([...RUNTIME_TYPES, ...GLOBAL_TYPES])

export const fetchClientEntry = toOperationEntry({
  id: '@svc/gen-fetch-client',
  enrichmentSchema,
  toExportPath: () => 'client.ts',
  toName(operation, variant) {
    // `operation.name` is distinct per operation: `get-pet` and `getPet` give `getPet2` and `getPet`.
    const name = toIdentifierName(operation.name, 'camel') + variantSuffix(variant)
    // The runtime's function is declared first, so an operation of the same name steps aside.
    return RUNTIME_VALUES.includes(name) ? `${name}_` : name
  },
  transform({ context, subject, variant, name, exportPath, enrichment }) {
    const runtime = defineRuntime(context, exportPath)
    const validate = enrichment?.validate ?? validateByDefault(context.generatorSettings)
    context.define({
      name,
      kind: 'value',
      exportPath,
      build: () => {
        const dependsOn: Dependency[] = [...runtime]
        const nameModel = (refName: string, view?: ModelView) =>
          typeName(context, refName, dependsOn, view)
        const nameData = dataNamer({
          context,
          operation: subject,
          variant,
          validate,
          nameModel,
          nameSchema: (refName, view) => schemaName(context, refName, dependsOn, view),
          dependsOn,
        })
        const code = printOperation({
          model: context.model,
          operation: subject,
          name,
          nameModel,
          nameData,
        })
        return { code, dependsOn }
      },
    })
  },
})

function typeName(
  context: GenerateContext,
  refName: string,
  dependsOn: Dependency[],
  view?: ModelView,
): string {
  const key = context.insertModel(typescriptEntry, refName, view)
  const name = key.identifier.name
  if (TAKEN_TYPES.has(name))
    throw new Error(`The type of model '${refName}', ${name}, would shadow the client's ${name}`)
  dependsOn.push({ name, exportPath: key.exportPath, typeOnly: true })
  return name
}

function schemaName(
  context: GenerateContext,
  refName: string,
  dependsOn: Dependency[],
  view?: ModelView,
): string {
  const key = context.insertModel(zodEntry, refName, view)
  dependsOn.push({ name: key.identifier.name, exportPath: key.exportPath })
  return key.identifier.name
}

export const generators: readonly AnyGeneratorEntry[] = [fetchClientEntry]
