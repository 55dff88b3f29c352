/**
 * @module @svc/gen-tanstack-query: TanStack Query options for every operation of an OpenAPI
 * description, in `queries.ts`, built on the functions `@svc/gen-fetch-client` writes in
 * `client.ts`, which must run in the same project. A GET or HEAD gets `<name>Query(args,
 * options)`, returning `{ queryKey, queryFn }` with the key `['<name>', args]`; any other method
 * gets `<name>Mutation(options)`, returning `{ mutationKey, mutationFn }` whose variables are the
 * client function's arguments. Both resolve to the body of a 2xx response and reject with a
 * `ResponseError` holding the result otherwise. The objects are plain and typed structurally, so
 * the generated code imports nothing from TanStack: `useQuery`, `queryOptions`,
 * `queryClient.fetchQuery` and the Vue, Solid, Svelte and Angular adapters take them as they are.
 * docs/generators/tanstack-query.md describes them.
 */
import {
  toOperationEntry,
  type AnyGeneratorEntry,
  type OperationSubject,
} from '@svc/engine/generate'
import { fetchClientEntry } from '@svc/gen-fetch-client'
import { isQuery, printMutation, printQuery } from './print-options.js'
import { defineRuntime } from './runtime.js'

export const tanstackQueryEntry = toOperationEntry({
  id: '@svc/gen-tanstack-query',
  toExportPath: () => 'queries.ts',
  toName: (operation, variant) =>
    `${clientFunctionOf(operation, variant)}${isQuery(operation) ? 'Query' : 'Mutation'}`,
  transform({ context, subject, variant, name, exportPath }) {
    const client = clientFunctionOf(subject, variant)
    const clientPath = fetchClientEntry.toExportPath?.(subject) ?? 'client.ts'
    const runtime = defineRuntime(context, exportPath, clientPath)
    const printed = { name, client, summary: subject.summary }
    context.define({
      name,
      kind: 'value',
      exportPath,
      code: isQuery(subject) ? printQuery(printed) : printMutation(printed),
      dependsOn: [...runtime, { name: client, exportPath: clientPath }],
    })
  },
})

/** The name gen-fetch-client gives the operation's function, variant suffix included. */
function clientFunctionOf(operation: OperationSubject, variant: string): string {
  const name = fetchClientEntry.toName?.(operation, variant)
  if (name === undefined) throw new Error('@svc/gen-fetch-client names no function')
  return name
}

export const generators: readonly AnyGeneratorEntry[] = [tanstackQueryEntry]
