import type { GraphqlRootKind, HttpMethod } from '../../model/index.js'

/**
 * One thing a generator transforms. Webhooks and GraphQL root fields are operations of their
 * document, so operation generators receive all three operation-like kinds.
 */
export type Subject =
  | { readonly kind: 'operation'; readonly path: string; readonly method: HttpMethod }
  | { readonly kind: 'webhook'; readonly name: string; readonly method: HttpMethod }
  | {
      readonly kind: 'graphql'
      readonly rootKind: GraphqlRootKind
      readonly fieldName: string
    }
  | { readonly kind: 'model'; readonly refName: string }

export type SubjectKind = Subject['kind']

/** What a generator iterates over: operations (HTTP, webhook, GraphQL) or models. */
export type GeneratorKind = 'operation' | 'model'

export function generatorKindOf(kind: SubjectKind): GeneratorKind {
  return kind === 'model' ? 'model' : 'operation'
}

/**
 * How many keys lie between the generator id and the variant block: `[id][path][method]` for
 * operations, `[id][refName]` for models. The audit checks configured entries at this depth.
 */
export function blockDepth(kind: GeneratorKind): 1 | 2 {
  return kind === 'model' ? 1 : 2
}

/** The keys of a subject below the generator id, e.g. `['/pets', 'post']`. */
export function subjectKeys(subject: Subject): readonly [string] | readonly [string, string] {
  switch (subject.kind) {
    case 'operation':
      return [subject.path, subject.method]
    case 'webhook':
      return [subject.name, subject.method]
    case 'graphql':
      return [subject.rootKind, subject.fieldName]
    case 'model':
      return [subject.refName]
  }
}

/** The routing key sequence of a subject's variant block: `[id, path, method]`, `[id, refName]`. */
export function blockRouteOf(generatorId: string, subject: Subject): readonly string[] {
  return [generatorId, ...subjectKeys(subject)]
}

/**
 * The routing key sequence of one variant's payload under `settings.enrichments`.
 *
 * @example
 * ```ts
 * routeOf('gen-zod', { kind: 'operation', path: '/pets', method: 'post' }, 'main')
 * // ['gen-zod', '/pets', 'post', 'main']
 * ```
 */
export function routeOf(generatorId: string, subject: Subject, variant: string): readonly string[] {
  return [...blockRouteOf(generatorId, subject), variant]
}
