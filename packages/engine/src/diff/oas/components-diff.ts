import type { OasModel, OAuthFlow, SecurityScheme } from '../../model/index.js'
import type { ChangelogBuilder } from '../changelog.js'
import { escapePointer } from './scope.js'

/** Security schemes, servers and tags: compared on their own, not through operations. */
export function compareDocumentParts(log: ChangelogBuilder, old: OasModel, next: OasModel): void {
  compareSecuritySchemes(log, old.components.securitySchemes, next.components.securitySchemes)
  compareServers(log, old, next)
  compareTags(log, old, next)
}

function compareSecuritySchemes(
  log: ChangelogBuilder,
  old: Readonly<Record<string, SecurityScheme>>,
  next: Readonly<Record<string, SecurityScheme>>,
): void {
  for (const name of Object.keys(next)) {
    const place = `/components/securitySchemes/${escapePointer(name)}`
    if (!Object.hasOwn(old, name)) {
      log.count('securitySchemes', 'added')
      log.add('security-scheme-added', place, `The security scheme \`${name}\` was added.`)
      continue
    }
    const before = log.changeCount
    compareScheme(log, name, place, old[name]!, next[name]!)
    if (log.changeCount > before) log.count('securitySchemes', 'modified')
  }
  for (const name of Object.keys(old))
    if (!Object.hasOwn(next, name)) {
      log.count('securitySchemes', 'deleted')
      log.add(
        'security-scheme-removed',
        `/components/securitySchemes/${escapePointer(name)}`,
        `The security scheme \`${name}\` was removed.`,
      )
    }
}

function kindOf(scheme: SecurityScheme): string {
  return scheme.type === 'http' ? `http ${scheme.scheme.toLowerCase()}` : scheme.type
}

function compareScheme(
  log: ChangelogBuilder,
  name: string,
  place: string,
  old: SecurityScheme,
  next: SecurityScheme,
): void {
  if (kindOf(old) !== kindOf(next))
    return log.add(
      'security-scheme-type-changed',
      place,
      `The security scheme \`${name}\` changed from ${kindOf(old)} to ${kindOf(next)}.`,
    )
  if (old.type === 'http' && next.type === 'http') {
    if (old.bearerFormat !== next.bearerFormat)
      log.add(
        'security-scheme-bearer-format-changed',
        place,
        `The bearer format of \`${name}\` changed from ${old.bearerFormat ?? 'none'} to ${next.bearerFormat ?? 'none'}.`,
      )
  } else if (old.type === 'apiKey' && next.type === 'apiKey') {
    if (old.name !== next.name || old.in !== next.in)
      log.add(
        'security-scheme-api-key-changed',
        place,
        `The API key \`${name}\` moved from ${old.in} \`${old.name}\` to ${next.in} \`${next.name}\`.`,
      )
  } else if (old.type === 'openIdConnect' && next.type === 'openIdConnect') {
    if (old.openIdConnectUrl !== next.openIdConnectUrl)
      log.add(
        'security-scheme-url-changed',
        place,
        `The OpenID Connect URL of \`${name}\` changed.`,
      )
  } else if (old.type === 'oauth2' && next.type === 'oauth2') {
    const flows = (scheme: typeof old) => scheme.flows as Readonly<Record<string, OAuthFlow>>
    const [a, b] = [flows(old), flows(next)]
    for (const flow of Object.keys(b)) {
      const flowPlace = `${place}/flows/${flow}`
      if (!Object.hasOwn(a, flow)) {
        log.add(
          'oauth-flow-added',
          flowPlace,
          `The OAuth flow \`${flow}\` of \`${name}\` was added.`,
        )
        continue
      }
      compareFlow(log, name, flow, flowPlace, a[flow]!, b[flow]!)
    }
    for (const flow of Object.keys(a))
      if (!Object.hasOwn(b, flow))
        log.add(
          'oauth-flow-removed',
          `${place}/flows/${flow}`,
          `The OAuth flow \`${flow}\` of \`${name}\` was removed.`,
        )
  }
}

function compareFlow(
  log: ChangelogBuilder,
  name: string,
  flow: string,
  place: string,
  old: OAuthFlow,
  next: OAuthFlow,
): void {
  for (const url of ['authorizationUrl', 'tokenUrl', 'refreshUrl'] as const)
    if (old[url] !== next[url])
      log.add(
        'security-scheme-url-changed',
        place,
        `The ${url} of the \`${flow}\` flow of \`${name}\` changed.`,
      )
  for (const scope of Object.keys(next.scopes))
    if (!Object.hasOwn(old.scopes, scope))
      log.add(
        'oauth-scope-added',
        place,
        `The scope \`${scope}\` was added to the \`${flow}\` flow of \`${name}\`.`,
      )
  for (const scope of Object.keys(next.scopes))
    if (Object.hasOwn(old.scopes, scope) && old.scopes[scope] !== next.scopes[scope])
      log.add(
        'oauth-scope-description-changed',
        place,
        `The description of the scope \`${scope}\` of the \`${flow}\` flow of \`${name}\` changed.`,
      )
  for (const scope of Object.keys(old.scopes))
    if (!Object.hasOwn(next.scopes, scope))
      log.add(
        'oauth-scope-removed',
        place,
        `The scope \`${scope}\` was removed from the \`${flow}\` flow of \`${name}\`.`,
      )
}

function serverKey(url: string): string {
  return url.replace(/\/+$/, '')
}

function compareServers(log: ChangelogBuilder, old: OasModel, next: OasModel): void {
  const before = new Set(old.servers.map((server) => serverKey(server.url)))
  const after = new Set(next.servers.map((server) => serverKey(server.url)))
  next.servers.forEach((server, index) => {
    if (before.has(serverKey(server.url))) return
    log.count('servers', 'added')
    log.add('server-added', `/servers/${index}`, `The server \`${server.url}\` was added.`)
  })
  old.servers.forEach((server, index) => {
    if (after.has(serverKey(server.url))) return
    log.count('servers', 'deleted')
    log.add('server-removed', `/servers/${index}`, `The server \`${server.url}\` was removed.`)
  })
}

function compareTags(log: ChangelogBuilder, old: OasModel, next: OasModel): void {
  const before = new Set(old.tags.map((tag) => tag.name))
  const after = new Set(next.tags.map((tag) => tag.name))
  next.tags.forEach((tag, index) => {
    if (before.has(tag.name)) return
    log.count('tags', 'added')
    log.add('tag-added', `/tags/${index}`, `The tag \`${tag.name}\` was added.`)
  })
  old.tags.forEach((tag, index) => {
    if (after.has(tag.name)) return
    log.count('tags', 'deleted')
    log.add('tag-removed', `/tags/${index}`, `The tag \`${tag.name}\` was removed.`)
  })
}
