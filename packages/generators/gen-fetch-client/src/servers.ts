import type { ApiModel, Server } from '@svc/engine'
import { propertyKey } from '@svc/engine/generate'
import { quote } from './quote.js'

/** The document's servers, when it lists any: what `ClientServerVariables` and `serverUrl` describe. */
export function documentServers(model: ApiModel): readonly Server[] {
  return model.protocol === 'oas' ? model.servers : []
}

/** The variables of each server by its index; a variable with an `enum` takes only its values. */
export function printServerVariables(servers: readonly Server[]): string {
  const entries = servers.map((server, index) => {
    const variables = Object.entries(server.variables ?? {}).map(([name, variable]) => {
      const type = variable.enum?.length ? variable.enum.map(quote).join(' | ') : 'string'
      const doc =
        variable.description === undefined ? '' : `    /** ${oneLine(variable.description)} */\n`
      return `${doc}    readonly ${propertyKey(name)}?: ${type}\n`
    })
    const type = variables.length === 0 ? 'Record<string, never>' : `{\n${variables.join('')}  }`
    return `  /** ${oneLine(server.url)} */\n  ${index}: ${type}\n`
  })
  return `/** The variables of each of the document's servers, by its index in the document. */
export type ClientServerVariables = {
${entries.join('')}}`
}

export function printServerUrl(servers: readonly Server[]): string {
  const rows = servers.map((server) => {
    const defaults = Object.entries(server.variables ?? {}).map(
      ([name, variable]) => `${propertyKey(name)}: ${quote(variable.default)}`,
    )
    const values = defaults.length === 0 ? '{}' : `{ ${defaults.join(', ')} }`
    return `    [${quote(server.url)}, ${values}],\n`
  })
  return `/**
 * The URL of one of the document's servers (the first by default), its variables filled in, those
 * not given at their defaults: a \`baseUrl\` for the client's options.
 */
export function serverUrl<Index extends keyof ClientServerVariables = 0>(
  variables?: ClientServerVariables[Index],
  index?: Index,
): string {
  const servers: ReadonlyArray<readonly [string, Readonly<Record<string, string>>]> = [
${rows.join('')}  ]
  const [url, defaults] = servers[index ?? 0] ?? servers[0]!
  const values: Readonly<Record<string, string | undefined>> = { ...defaults, ...variables }
  return url.replace(/\\{([^{}]+)\\}/g, (variable, name: string) => values[name] ?? variable)
}`
}

/** Text that cannot end the comment it is written in, on one line. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim().replace(/\*\//g, '*\\/')
}
