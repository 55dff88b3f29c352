import type { Parameter } from '../../model/index.js'
import { compareParameterDocs } from './documentation-diff.js'
import type { Operation } from './operation-diff.js'
import { compareParameterSunset, parameterRemovalRule, Policies } from './policy-diff.js'
import { isRef, resolveComponent, type Resolvable } from './resolve-component.js'
import { compareSchemas, type Comparison } from './schema-diff.js'
import { capitalise, escapePointer, type Scope } from './scope.js'
import { mayBe } from './value-shape.js'

/** Path parameters match by their place in the path, so renaming `{id}` to `{petId}` is no change. */
function parameterKey(parameter: Parameter, operation: Operation): string {
  if (parameter.in === 'path' && operation.kind === 'http') {
    const names = [...operation.path.matchAll(/\{([^}]*)\}/g)].map((match) => match[1])
    const index = names.indexOf(parameter.name)
    if (index >= 0) return `path:#${index}`
  }
  return `${parameter.in}:${parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name}`
}

function parameterLabel(parameter: Parameter): string {
  return `${parameter.in} parameter \`${parameter.name}\``
}

export function compareParameters(
  cmp: Comparison,
  scope: Scope,
  old: Operation,
  next: Operation,
  pointer: string,
  policies: Policies,
): void {
  const before = new Map<string, { raw: Resolvable<Parameter>; value: Parameter }>()
  for (const raw of old.parameters) {
    const value = resolveComponent<Parameter>(cmp.old, 'parameters', raw)
    if (value) before.set(parameterKey(value, old), { raw, value })
  }
  for (const raw of next.parameters) {
    const value = resolveComponent<Parameter>(cmp.next, 'parameters', raw)
    if (!value) continue
    const key = parameterKey(value, next)
    const place = `${pointer}/parameters/${value.in}/${escapePointer(value.name)}`
    const match = before.get(key)
    before.delete(key)
    if (!match) {
      scope.fixed(
        value.required ? 'new-required-request-parameter' : 'new-optional-request-parameter',
        place,
        `The ${value.required ? 'required' : 'optional'} ${parameterLabel(value)} was added.`,
      )
      continue
    }
    if (isRef(match.raw) && isRef(raw)) {
      const shared = cmp.shared('parameters', match.raw.refName, raw.refName, (component) =>
        compareParameter(cmp, component, match.value, value, component.pointer, policies),
      )
      scope.link(shared, 'request-parameter')
    } else
      compareParameter(
        cmp,
        scope.region(parameterLabel(value), 'request-parameter'),
        match.value,
        value,
        place,
        policies,
      )
  }
  for (const { value } of before.values())
    scope.fixed(
      parameterRemovalRule(policies, value),
      `${pointer}/parameters/${value.in}/${escapePointer(value.name)}`,
      `The ${value.deprecated ? 'deprecated ' : ''}${parameterLabel(value)} was removed.`,
    )
}

const DEFAULT_STYLES: Record<Parameter['in'], string> = {
  query: 'form',
  cookie: 'form',
  path: 'simple',
  header: 'simple',
}

function serialisation(parameter: Parameter): string {
  const format = collectionFormat(parameter)
  if (format !== undefined) return format
  const style = parameter.style ?? DEFAULT_STYLES[parameter.in]
  return `style ${style}, explode ${parameter.explode ?? style === 'form'}`
}

/**
 * A Swagger 2.0 `collectionFormat` that OpenAPI 3 cannot express (`pipes` in a header, `tsv`),
 * which the conversion keeps as `x-collectionFormat`: it replaces the style it had no word for.
 */
export function collectionFormat(described: Pick<Parameter, 'extensions'>): string | undefined {
  const format = described.extensions?.['x-collectionFormat']
  return typeof format === 'string' ? `collectionFormat ${format}` : undefined
}

/**
 * Whether a serialisation change is more than `explode` on a value it cannot affect: a scalar is
 * written the same either way, and `simple` writes an array the same either way too.
 */
function explodeMatters(cmp: Comparison, old: Parameter, next: Parameter): boolean {
  if (collectionFormat(old) !== undefined || collectionFormat(next) !== undefined) return true
  const style = old.style ?? DEFAULT_STYLES[old.in]
  if (style !== (next.style ?? DEFAULT_STYLES[next.in])) return true
  const kinds: Array<'object' | 'array'> = style === 'simple' ? ['object'] : ['object', 'array']
  return mayBe(cmp.old, old.schema, kinds) || mayBe(cmp.next, next.schema, kinds)
}

export function compareParameter(
  cmp: Comparison,
  scope: Scope,
  old: Parameter,
  next: Parameter,
  pointer: string,
  policies = new Policies(),
): void {
  const label = capitalise(parameterLabel(next))
  if (!old.required && next.required)
    scope.fixed('request-parameter-became-required', pointer, `${label} became required.`)
  if (old.required && !next.required)
    scope.fixed('request-parameter-became-optional', pointer, `${label} became optional.`)
  if (!old.deprecated && next.deprecated)
    scope.fixed('request-parameter-deprecated', pointer, `${label} was deprecated.`)
  if (old.deprecated && !next.deprecated)
    scope.fixed('request-parameter-reactivated', pointer, `${label} is no longer deprecated.`)
  if (old.mediaType !== next.mediaType)
    scope.fixed(
      'request-parameter-media-type-changed',
      pointer,
      `${label} changed its media type from \`${old.mediaType ?? 'none'}\` to \`${next.mediaType ?? 'none'}\`.`,
    )
  else if (next.mediaType === undefined && serialisation(old) !== serialisation(next))
    scope.fixed(
      explodeMatters(cmp, old, next)
        ? 'request-parameter-style-changed'
        : 'request-parameter-explode-changed',
      pointer,
      `${label} changed serialisation from ${serialisation(old)} to ${serialisation(next)}.`,
    )
  // Only a query parameter's value is percent-encoded by these rules; elsewhere the spec ignores the field.
  if (next.in === 'query' && !old.allowReserved !== !next.allowReserved)
    scope.fixed(
      next.allowReserved
        ? 'request-parameter-allow-reserved-set'
        : 'request-parameter-allow-reserved-cleared',
      pointer,
      next.allowReserved
        ? `${label} now accepts reserved characters (\`/?#[]@!$&'()*+,;=\`) without percent-encoding.`
        : `${label} no longer accepts reserved characters without percent-encoding: a request that sends them as written is rejected.`,
    )
  // Only a query parameter may be sent empty (`?q=`); elsewhere the spec ignores the field.
  if (next.in === 'query' && !old.allowEmptyValue !== !next.allowEmptyValue)
    scope.fixed(
      next.allowEmptyValue
        ? 'request-parameter-allow-empty-value-set'
        : 'request-parameter-allow-empty-value-cleared',
      pointer,
      next.allowEmptyValue
        ? `${label} now allows an empty value.`
        : `${label} no longer allows an empty value: a request that sends it empty is rejected.`,
    )
  compareParameterSunset(policies, scope, old, next, pointer, parameterLabel(next))
  compareParameterDocs(scope, old, next, pointer)
  compareSchemas(cmp, scope, old.schema, next.schema, `${pointer}/schema`)
}
