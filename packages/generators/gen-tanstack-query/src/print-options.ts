import type { HttpOperation } from '@svc/engine'
import { printTextDoc } from '@svc/gen-typescript'

type Printed = { name: string; client: string; summary: string | undefined }

/** `{ queryKey, queryFn }` for a GET or HEAD, its key the client function's name and arguments. */
export function printQuery({ name, client, summary }: Printed): string {
  return `${docOf(summary, `query of \`${client}\`, for \`useQuery(${name}(args))\``)}${signature(`export function ${name}(`, `...[args, options]: Parameters<typeof ${client}>`)}
  return {
    queryKey: ['${client}', args] as const,
    queryFn: ({ signal }: { readonly signal: globalThis.AbortSignal }) =>
${successData('      ', `${client}(args, { ...options, signal })`)},
  }
}`
}

/** `{ mutationKey, mutationFn }` for any other method: the variables are the client's arguments. */
export function printMutation({ name, client, summary }: Printed): string {
  return `${docOf(summary, `mutation of \`${client}\`, for \`useMutation(${name}())\``)}${signature(`export function ${name}(`, 'options?: RequestOptions', ',')}
  return {
    mutationKey: ${key(`['${client}'] as const`)},
${arrow('    mutationFn: ', `args: Parameters<typeof ${client}>[0]`, `${client}(args, options)`)},
  }
}`
}

/** The widest line, as the repository's prettier configuration; longer lines break as it does. */
const WIDTH = 100

/**
 * `export function name(parameter) {`, the parameter on a line of its own when too long, with
 * `comma` after it (none after a rest parameter).
 */
function signature(head: string, parameter: string, comma = ''): string {
  const line = `${head}${parameter}) {`
  return line.length <= WIDTH ? line : `${head}\n  ${parameter}${comma}\n) {`
}

/** The mutation key after `mutationKey: `, its one element on a line of its own when too long. */
function key(line: string): string {
  if (`    mutationKey: ${line},`.length <= WIDTH) return line
  return `[\n      ${line.slice(1, -' as const'.length - 1)},\n    ] as const`
}

/**
 * `key: (parameter) => successDataOf(call)`, broken after the arrow when too long, and with the
 * parameter on a line of its own when even that is too long.
 */
function arrow(head: string, parameter: string, call: string): string {
  const line = `${head}(${parameter}) => successDataOf(${call})`
  if (line.length + 1 <= WIDTH) return line
  const indent = head.replace(/\S.*/, '')
  if (`${head}(${parameter}) =>`.length <= WIDTH)
    return `${head}(${parameter}) =>\n${successData(`${indent}  `, call)}`
  const body = successData(indent, call).trimStart()
  return `${head}(\n${indent}  ${parameter},\n${indent}) => ${body}`
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

/** The summary's first line and what the function gives, broken to 100 columns. */
function docOf(summary: string | undefined, what: string): string {
  const first = summary?.split('\n')[0]?.trim()
  return printTextDoc(`${first ? `${first}: the ${what}` : `The ${what}`}.`, '')
}
