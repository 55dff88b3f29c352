import type { HttpOperation } from '@svc/engine'

type Printed = { name: string; client: string; summary: string | undefined }

/** `{ queryKey, queryFn }` for a GET or HEAD, its key the client function's name and arguments. */
export function printQuery({ name, client, summary }: Printed): string {
  return `${docOf(summary, `query of \`${client}\`, for \`useQuery(${name}(args))\``)}
export function ${name}(...[args, options]: Parameters<typeof ${client}>) {
  return {
    queryKey: ['${client}', args] as const,
    queryFn: ({ signal }: { readonly signal: globalThis.AbortSignal }) =>
      successDataOf(${client}(args, { ...options, signal })),
  }
}`
}

/** `{ mutationKey, mutationFn }` for any other method: the variables are the client's arguments. */
export function printMutation({ name, client, summary }: Printed): string {
  return `${docOf(summary, `mutation of \`${client}\`, for \`useMutation(${name}())\``)}
export function ${name}(options?: RequestOptions) {
  return {
    mutationKey: ['${client}'] as const,
    mutationFn: (args: Parameters<typeof ${client}>[0]) => successDataOf(${client}(args, options)),
  }
}`
}

export function isQuery(operation: HttpOperation): boolean {
  return operation.method === 'get' || operation.method === 'head'
}

function docOf(summary: string | undefined, what: string): string {
  const first = summary?.split('\n')[0]?.replaceAll('*/', '*\\/').trim()
  return `/** ${first ? `${first}: the ${what}` : `The ${what}`}. */`
}
