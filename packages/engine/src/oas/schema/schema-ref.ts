import { OAS_ISSUES } from '../../issues/index.js'
import type { RefSchema, Schema } from '../../model/schema.js'
import { getAtLocalRef, parseLocalRef } from '../../refs/pointer.js'
import { RefError } from '../../refs/ref-error.js'
import { BUCKET_TYPE, MAX_REF_LOOKUPS, splitComponentRef } from '../../refs/resolve-ref.js'
import { isObject, type OasContext, type Outcome, type RawObject } from '../context.js'
import { AllOfCycleFailure, DependencyFailure } from '../failures.js'
import { overlay, wrapperAnnotations } from './annotations.js'
import { mergeSchemas, type MergeResolver } from './merge.js'
import { bareOf, readSchemaFields } from './schema-fields.js'

/**
 * A schema written as `$ref`. A ref to `#/components/schemas/<name>` stays a lazy ref node; any
 * other local pointer is parsed in place. In 3.0 every sibling of `$ref` is ignored and reported;
 * in 3.1 annotation siblings (description, summary …) apply to the ref and other keywords are
 * combined with it as in `allOf`.
 */
export function parseSchemaRef(ctx: OasContext, value: RawObject, depth: number): Schema {
  const ref = value.$ref as string
  let siblings: RawObject | undefined
  let summary: unknown
  for (const key in value) {
    if (key === '$ref') continue
    if (ctx.dialect === '3.0') ctx.unexpected(key)
    else if (key === 'summary') summary = value[key]
    else (siblings ??= {})[key] = value[key]
  }
  const node = refTarget(ctx, ref, depth)
  if (!siblings) return typeof summary === 'string' ? overlay(node, { description: summary }) : node
  const f = readSchemaFields(ctx, siblings)
  const structural =
    f.constraints > 0 || f.allOf !== undefined || f.oneOf !== undefined || f.anyOf !== undefined
  const base = structural
    ? mergeSchemas(node, ctx.schemas.fields(ctx, bareOf(f), depth), mergeResolver(ctx))
    : node
  const annotations = wrapperAnnotations(f, base, false)
  if (annotations.description === undefined && typeof summary === 'string')
    annotations.description = summary
  return overlay(base, annotations)
}

function refNode(ctx: OasContext, ref: string, refName: string): RefSchema {
  return ctx.shared(`$ref:${ref}`, () => ({ kind: 'ref', $ref: ref, refName, nullable: false }))
}

function refTarget(ctx: OasContext, ref: string, depth: number): Schema {
  const component = splitComponentRef(ref)
  if (component) {
    ctx.useRef(ref, 'schemas')
    return refNode(ctx, ref, component.name)
  }
  const target = getAtLocalRef(ctx.document, ref)
  if (target === undefined) {
    // Missing, remote, or a file that was not followed: reported once every unit is parsed.
    ctx.useRef(ref, 'schemas')
    return refNode(ctx, ref, parseLocalRef(ref)?.at(-1) ?? ref)
  }
  if (ctx.inlining.has(ref))
    ctx.fail(`Recursive $ref "${ref}" through a location that is not a component`)
  ctx.inlining.add(ref)
  try {
    return ctx.schemas.schema(ctx, target, depth + 1)
  } finally {
    ctx.inlining.delete(ref)
  }
}

/** Parses `components.schemas.<name>` as its own unit (once) and returns what became of it. */
export function schemaComponent(ctx: OasContext, name: string): Outcome<Schema> | undefined {
  const known = ctx.schemaOutcomes.get(name)
  if (known) return known
  const schemas = ctx.document.components
  const raw =
    isObject(schemas) && isObject(schemas.schemas) && Object.hasOwn(schemas.schemas, name)
      ? schemas.schemas[name]
      : undefined
  if (raw === undefined) return undefined
  const active = ctx.activeSchemas.indexOf(name)
  if (active !== -1) throw new AllOfCycleFailure([...ctx.activeSchemas.slice(active), name])
  ctx.activeSchemas.push(name)
  const outcome = ctx.runUnit(['components', 'schemas', name], OAS_ISSUES.invalidSchema, () =>
    ctx.schemas.schema(ctx, raw, 0),
  )
  ctx.activeSchemas.pop()
  ctx.schemaOutcomes.set(name, outcome)
  return outcome
}

/**
 * Resolves lazy refs for an `allOf` merge: follows ref chains (at most {@link MAX_REF_LOOKUPS})
 * to parsed components and carries their refs into the current unit. An unusable target fails the
 * unit with INVALID_DEPENDENCY_REF; reaching a component on the current merge path is a cycle.
 */
export function mergeResolver(ctx: OasContext): MergeResolver {
  return function resolveForMerge(schema: Schema): Schema {
    if (schema.kind !== 'ref') return schema
    const at = [...ctx.trail]
    let current: Schema = schema
    for (let lookups = 1; current.kind === 'ref'; lookups++) {
      const ref = current.$ref
      if (lookups > MAX_REF_LOOKUPS)
        throw new DependencyFailure(schema.$ref, RefError.maxLookups(ref).message, at)
      const target = splitComponentRef(ref)
      if (target && target.bucket !== 'schemas') {
        const actual = BUCKET_TYPE[target.bucket] ?? target.bucket
        throw new DependencyFailure(ref, RefError.typeMismatch(ref, 'schema', actual).message, at)
      }
      const outcome = target ? schemaComponent(ctx, target.name) : undefined
      if (!outcome) throw new DependencyFailure(ref, RefError.notFound(ref).message, at)
      if (!outcome.ok) {
        const unit = ctx.activeSchemas.at(-1)
        if (outcome.cycle && unit !== undefined && outcome.cycle.includes(unit))
          throw new AllOfCycleFailure(outcome.cycle)
        throw new DependencyFailure(ref, `Ref "${ref}" is invalid: ${outcome.reason}`, at)
      }
      ctx.inheritRefs(outcome.refs)
      current = outcome.value
    }
    return schema.nullable && !current.nullable ? overlay(current, { nullable: true }) : current
  }
}
