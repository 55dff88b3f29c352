import type { z } from 'zod'
import { auditEnrichments, GENERATOR_SCOPE, STACK_SCOPE } from './audit.js'
import { EnrichmentError, formatEnrichmentPath } from './enrichment-error.js'
import { createWarning, warningMessages, type EnrichmentWarning } from './enrichment-warning.js'
import { PathTree, pathKey } from './path-tree.js'
import { parsePayload, stripUndeclaredKeys } from './payload.js'
import { blockRouteOf, generatorKindOf, type GeneratorKind, type Subject } from './routing.js'
import { childOf, isRecord } from './shape.js'
import { variantNamesOf } from './variants.js'

/** What the enrichments need to know about one generator of the run. */
export type EnrichmentGenerator = {
  readonly id: string
  /** Operation generators take operations, webhooks and GraphQL root fields; model generators take models. */
  readonly kind: GeneratorKind
  /** Validates one variant's payload; keys its `z.object` shapes do not declare are stripped. */
  readonly schema?: z.core.$ZodType
}

/** The payload type `read` returns for a generator: its schema's output, else `unknown`. */
export type EnrichmentPayload<G extends EnrichmentGenerator, Id extends string> =
  Extract<G, { readonly id: Id }> extends { readonly schema: infer S extends z.core.$ZodType }
    ? z.output<S>
    : unknown

export type EnrichmentsOptions<G extends EnrichmentGenerator> = {
  /** The raw `settings.enrichments` of `client.json`: any value; a non-object is reported. */
  readonly enrichments: unknown
  readonly generators: readonly G[]
}

/** Reads `settings.enrichments` for one generator run and audits what was never read. */
export interface Enrichments<G extends EnrichmentGenerator = EnrichmentGenerator> {
  /** The subject's variant names, `main` first; throws an {@link EnrichmentError} on a bad block. */
  variants(generatorId: G['id'], subject: Subject): readonly string[]
  /** One variant's payload, validated; `undefined` when not configured. */
  read<Id extends G['id']>(
    generatorId: Id,
    subject: Subject,
    variant: string,
  ): EnrichmentPayload<G, Id> | undefined
  /** The `_stack` bag shared by every generator of the run. */
  stack(): Readonly<Record<string, unknown>>
  /** The `[id]._generator` bag. */
  generatorScope(generatorId: G['id']): Readonly<Record<string, unknown>>
  /** The subject is excluded by skip/include: its entries are reported as info, not unconsumed. */
  markSubjectSkipped(generatorId: G['id'], subject: Subject): void
  /** The generator is not run: its entries are reported once as info. */
  markGeneratorSkipped(generatorId: string): void
  /** The warnings of SPEC §7.7 so far; never throws, never changes what `read` returns. */
  audit(): readonly EnrichmentWarning[]
}

/**
 * Creates the enrichments of one generator run.
 *
 * @example
 * ```ts
 * const enrichments = createEnrichments({
 *   enrichments: clientJson.settings?.enrichments,
 *   generators: [{ id: 'gen-zod', kind: 'operation', schema: z.object({ name: z.string() }) }],
 * })
 * const pets = { kind: 'operation', path: '/pets', method: 'post' } as const
 * for (const variant of enrichments.variants('gen-zod', pets)) {
 *   enrichments.read('gen-zod', pets, variant) // { name: string } | undefined
 * }
 * manifest.enrichmentWarnings = enrichments.audit()
 * ```
 */
export function createEnrichments<const G extends EnrichmentGenerator>(
  options: EnrichmentsOptions<G>,
): Enrichments<G> {
  return new EnrichmentsImpl<G>(options)
}

class EnrichmentsImpl<G extends EnrichmentGenerator> implements Enrichments<G> {
  readonly #raw: unknown
  readonly #generators = new Map<string, G>()
  readonly #consumed = new PathTree()
  readonly #recorded: EnrichmentWarning[] = []
  readonly #skippedGenerators = new Set<string>()
  readonly #skippedSubjects = new Set<string>()

  constructor(options: EnrichmentsOptions<G>) {
    this.#raw = options.enrichments
    for (const generator of options.generators) {
      if (this.#generators.has(generator.id)) {
        throw new Error(`generator '${generator.id}' is listed twice`)
      }
      this.#generators.set(generator.id, generator)
    }
  }

  variants(generatorId: G['id'], subject: Subject): readonly string[] {
    const blockPath = this.#blockPath(generatorId, subject)
    return variantNamesOf(this.#lookup(blockPath), blockPath)
  }

  read<Id extends G['id']>(
    generatorId: Id,
    subject: Subject,
    variant: string,
  ): EnrichmentPayload<G, Id> | undefined {
    const variants = this.variants(generatorId, subject)
    const blockPath = blockRouteOf(generatorId, subject)
    if (!variants.includes(variant)) {
      const declared = variants.map((name) => `'${name}'`).join(', ')
      throw new EnrichmentError(
        [...blockPath, variant],
        `enrichments block '${formatEnrichmentPath(blockPath)}' has no variant '${variant}' (declared: ${declared})`,
      )
    }
    const path = [...blockPath, variant]
    const value = this.#lookup(path)
    const schema = this.#generators.get(generatorId)?.schema
    if (value === undefined || schema === undefined) return value as EnrichmentPayload<G, Id>
    const stripped = stripUndeclaredKeys(schema, value)
    for (const key of stripped.undeclared) {
      const keyPath = [...path, ...key.path]
      this.#recorded.push(
        createWarning(
          'UNKNOWN_ENRICHMENT_KEY',
          keyPath,
          warningMessages.unknownKey(keyPath, generatorId),
          key.suggestion,
        ),
      )
    }
    return parsePayload(schema, stripped.value, path) as EnrichmentPayload<G, Id>
  }

  stack(): Readonly<Record<string, unknown>> {
    return bag(this.#lookup([STACK_SCOPE]))
  }

  generatorScope(generatorId: G['id']): Readonly<Record<string, unknown>> {
    this.#generator(generatorId)
    return bag(this.#lookup([generatorId, GENERATOR_SCOPE]))
  }

  markSubjectSkipped(generatorId: G['id'], subject: Subject): void {
    this.#skippedSubjects.add(pathKey(this.#blockPath(generatorId, subject)))
  }

  markGeneratorSkipped(generatorId: string): void {
    this.#skippedGenerators.add(generatorId)
  }

  audit(): readonly EnrichmentWarning[] {
    const kinds = new Map([...this.#generators].map(([id, { kind }]) => [id, kind]))
    return auditEnrichments({
      enrichments: this.#raw,
      generators: kinds,
      skippedGenerators: this.#skippedGenerators,
      skippedSubjects: this.#skippedSubjects,
      consumed: this.#consumed,
      recorded: this.#recorded,
    })
  }

  /** The one choke point of every read: records the path as consumed, prefixes included. */
  #lookup(path: readonly string[]): unknown {
    this.#consumed.add(path)
    let node = this.#raw
    for (const segment of path) node = childOf(node, segment)
    return node
  }

  #generator(generatorId: string): G {
    const generator = this.#generators.get(generatorId)
    if (!generator) throw new Error(`generator '${generatorId}' is not part of this run`)
    return generator
  }

  #blockPath(generatorId: string, subject: Subject): readonly string[] {
    const { kind } = this.#generator(generatorId)
    if (generatorKindOf(subject.kind) !== kind) {
      throw new Error(`generator '${generatorId}' takes ${kind} subjects, not ${subject.kind}`)
    }
    return blockRouteOf(generatorId, subject)
  }
}

/** A scope bag as handed to generators: a frozen copy, `{}` when absent or not an object. */
function bag(value: unknown): Readonly<Record<string, unknown>> {
  return Object.freeze(isRecord(value) ? { ...value } : {})
}
