import type { HttpOperation } from '@svc/engine'

type Printed = { name: string; client: string; summary: string | undefined }

/** `{ queryKey, queryFn }` for a GET or HEAD, its key the client function's name and arguments. */
export function printQuery({ name, client, summary }: Printed): string {
  return `${docOf(summary, `query of \`${client}\`, for \`useQuery(${name}(args))\``)}
${signature(`export function ${name}(`, `...[args, options]: Parameters<typeof ${client}>`)}
  return {
    queryKey: ['${client}', args] as const,
    queryFn: ({ signal }: { readonly signal: globalThis.AbortSignal }) =>
${successData('      ', `${client}(args, { ...options, signal })`)},
  }
}`
}

/** `{ mutationKey, mutationFn }` for any other method: the variables are the client's arguments. */
export function printMutation({ name, client, summary }: Printed): string {
  return `${docOf(summary, `mutation of \`${client}\`, for \`useMutation(${name}())\``)}
export function ${name}(options?: RequestOptions) {
  return {
    mutationKey: ['${client}'] as const,
${arrow('    mutationFn: ', `(args: Parameters<typeof ${client}>[0])`, `${client}(args, options)`)},
  }
}`
}

/** The widest line, as the repository's prettier configuration; longer lines break as it does. */
const WIDTH = 100

/** `export function name(parameter) {`, the parameter on a line of its own when too long. */
function signature(head: string, parameter: string): string {
  const line = `${head}${parameter}) {`
  return line.length <= WIDTH ? line : `${head}\n  ${parameter}\n) {`
}

/** `key: (parameters) => successDataOf(call)`, broken after the arrow when too long. */
function arrow(head: string, parameters: string, call: string): string {
  const line = `${head}${parameters} => successDataOf(${call})`
  if (line.length + 1 <= WIDTH) return line
  return `${head}${parameters} =>\n${successData(`${head.replace(/\S.*/, '')}  `, call)}`
}

/** `successDataOf(call)` at `indent`, the call on a line of its own when too long. */
function successData(indent: string, call: string): string {
  const line = `${indent}successDataOf(${call})`
  return line.length + 1 <= WIDTH
    ? line
    : `${indent}successDataOf(\n${indent}  ${call},\n${indent})`
}

export function isQuery(operation: HttpOperation): boolean {
  return operation.method === 'get' || operation.method === 'head'
}

function docOf(summary: string | undefined, what: string): string {
  const first = summary?.split('\n')[0]?.replaceAll('*/', '*\\/').trim()
  return `/** ${first ? `${first}: the ${what}` : `The ${what}`}. */`
}
