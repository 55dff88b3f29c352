import type { GenerateContext } from '@svc/engine/generate'

type Dependency = { name: string; exportPath: string; typeOnly?: boolean }

const RESPONSE_ERROR = `/** What a query or mutation rejects with when the response's status is not 2xx. */
export class ResponseError<Result = unknown> extends Error {
  /** The response as the client function resolved it: \`status\`, \`data\`, \`headers\`. */
  readonly result: Result

  constructor(result: Result & { readonly status: number }) {
    super(\`The server answered \${result.status}\`)
    this.name = 'ResponseError'
    this.result = result
  }
}`

const SUCCESS_DATA = `/** The body of the 2xx responses an operation documents; unknown when it documents none. */
export type SuccessData<Result> =
  Extract<Result, { readonly status: HttpStatus<2> }> extends infer Success
    ? [Success] extends [never]
      ? unknown
      : Success extends { readonly data: infer Data }
        ? Data
        : never
    : never`

// TanStack Query treats a rejected promise as an error state; the client resolves every status.
const SUCCESS_DATA_OF = `async function successDataOf<
  Result extends {
    readonly status: number
    readonly data: unknown
    readonly response: globalThis.Response
  },
>(call: Promise<Result>): Promise<SuccessData<Result>> {
  const result = await call
  if (!result.response.ok) throw new ResponseError(result)
  return result.data as SuccessData<Result>
}`

/** The helpers every query and mutation of the file shares; returns them as dependencies. */
export function defineRuntime(
  context: GenerateContext,
  exportPath: string,
  clientPath: string,
): Dependency[] {
  const shared = { exportPath, scope: 'generator' } as const
  context.define({ ...shared, name: 'ResponseError', kind: 'value', code: RESPONSE_ERROR })
  context.define({
    ...shared,
    name: 'SuccessData',
    kind: 'type',
    code: SUCCESS_DATA,
    dependsOn: [{ name: 'HttpStatus', exportPath: clientPath, typeOnly: true }],
  })
  context.define({
    ...shared,
    name: 'successDataOf',
    kind: 'value',
    code: SUCCESS_DATA_OF,
    dependsOn: [
      { name: 'SuccessData', exportPath },
      { name: 'ResponseError', exportPath },
    ],
  })
  return [
    { name: 'successDataOf', exportPath },
    { name: 'RequestOptions', exportPath: clientPath, typeOnly: true },
  ]
}
