import type { ApiModel, HttpOperation, SecurityScheme } from '@svc/engine'
import { propertyKey } from '@svc/engine/generate'
import { quote } from './quote.js'

type Schemes = Readonly<Record<string, SecurityScheme>>

/** The document's security schemes: what `ClientAuth` takes a credential for. */
export function securitySchemes(model: ApiModel): Schemes {
  return model.protocol === 'oas' ? model.components.securitySchemes : {}
}

/** Where and how the runtime sends a scheme's credential. */
type Placement = { in: 'header' | 'query' | 'cookie'; name: string; prefix?: string; basic?: true }

function placementOf(scheme: SecurityScheme): Placement {
  if (scheme.type === 'apiKey') return { in: scheme.in, name: scheme.name }
  if (scheme.type === 'http' && scheme.scheme.toLowerCase() === 'basic')
    return { in: 'header', name: 'Authorization', basic: true }
  if (scheme.type === 'http' && scheme.scheme.toLowerCase() !== 'bearer')
    return { in: 'header', name: 'Authorization', prefix: `${scheme.scheme} ` }
  // OAuth 2 and OpenID Connect send the access token they obtained as a bearer token.
  return { in: 'header', name: 'Authorization', prefix: 'Bearer ' }
}

/** The credential's type, and what the doc comment says is done with it. */
function credentialOf(scheme: SecurityScheme): [type: string, doc: string] {
  const placement = placementOf(scheme)
  if (placement.basic)
    return ['{ readonly username: string; readonly password: string }', 'HTTP basic']
  const where =
    placement.in === 'header'
      ? `sent as \`${placement.name}: ${placement.prefix ?? ''}<value>\``
      : `sent in the ${placement.in} \`${placement.name}\``
  const kind =
    scheme.type === 'apiKey'
      ? 'API key'
      : scheme.type === 'http'
        ? `HTTP ${scheme.scheme}`
        : scheme.type === 'oauth2'
          ? 'OAuth 2 access token'
          : 'OpenID Connect access token'
  return ['string', `${kind}, ${where}`]
}

/** The `auth` option: a credential, or a function that supplies it on each call, per scheme. */
export function printClientAuth(schemes: Schemes): string {
  const members = Object.entries(schemes).map(([name, scheme]) => {
    const [type, doc] = credentialOf(scheme)
    const description = scheme.description === undefined ? '' : ` ${oneLine(scheme.description)}`
    return `  /** ${doc}.${description} */
  readonly ${propertyKey(name)}?: ${type} | (() => ${type} | Promise<${type}>)\n`
  })
  return `/**
 * Credentials by security scheme. Each operation sends those of the first of its security
 * requirements (its own or the document's) that the options hold all of, and none without one.
 */
export type ClientAuth = {
${members.join('')}}`
}

/** The runtime's table of schemes, and the code that picks and applies the credentials. */
export function printApplyAuth(schemes: Schemes): string {
  const rows = Object.entries(schemes).map(([name, scheme]) => {
    const placement = placementOf(scheme)
    const fields = [
      `in: ${quote(placement.in)}`,
      `name: ${quote(placement.name)}`,
      ...(placement.prefix === undefined ? [] : [`prefix: ${quote(placement.prefix)}`]),
      ...(placement.basic ? ['basic: true'] : []),
    ]
    return `    ${propertyKey(name)}: { ${fields.join(', ')} },\n`
  })
  return `  const schemes: Readonly<
    Record<string, { in: string; name: string; prefix?: string; basic?: boolean }>
  > = {
${rows.join('')}  }
  const credentials: Readonly<Record<string, unknown>> = options.auth ?? {}
  const requirement = operation.security?.find((names) =>
    names.every((name) => credentials[name] !== undefined && name in schemes),
  )
  const auth = { header: [] as [string, string][], query: [] as string[], cookie: [] as string[] }
  for (const name of requirement ?? []) {
    const scheme = schemes[name]
    const given = credentials[name]
    if (scheme === undefined) continue
    const value = typeof given === 'function' ? await (given as () => unknown)() : given
    let text = \`\${scheme.prefix ?? ''}\${String(value)}\`
    if (scheme.basic) {
      const { username, password } = value as { username: string; password: string }
      const bytes = new TextEncoder().encode(\`\${username}:\${password}\`)
      text = \`Basic \${btoa(String.fromCharCode(...bytes))}\`
    }
    if (scheme.in === 'header') auth.header.push([scheme.name, text])
    else
      auth[scheme.in === 'query' ? 'query' : 'cookie'].push(
        \`\${encodeURIComponent(scheme.name)}=\${encodeURIComponent(text)}\`,
      )
  }
`
}

/**
 * The `security` of an operation's descriptor: the scheme names of each requirement, in order;
 * undefined when it sends no credentials (no requirement, or \`security: []\`).
 */
export function printSecurity(model: ApiModel, operation: HttpOperation): string | undefined {
  const requirements = operation.security ?? (model.protocol === 'oas' ? model.security : undefined)
  if (requirements === undefined || requirements.length === 0) return undefined
  const lists = requirements.map(
    (requirement) => `[${Object.keys(requirement).map(quote).join(', ')}]`,
  )
  return `[${lists.join(', ')}]`
}

/** Text that cannot end the comment it is written in, on one line. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim().replace(/\*\//g, '*\\/')
}
