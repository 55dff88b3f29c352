import type { ExternalDocs, Schema } from './schema.js'

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace'
export const HTTP_METHODS: readonly HttpMethod[] = [
  'get',
  'put',
  'post',
  'delete',
  'options',
  'head',
  'patch',
  'trace',
]

/** The buckets under `components` that a `$ref` can point into. */
export type ComponentBucket =
  'schemas' | 'parameters' | 'responses' | 'requestBodies' | 'headers' | 'securitySchemes'

/** A lazy reference to a named non-schema component. */
export type ComponentRef<B extends ComponentBucket> = {
  readonly kind: 'ref'
  readonly bucket: B
  readonly $ref: string
  readonly refName: string
  readonly description?: string
}

export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie'

export type Parameter = {
  readonly kind: 'parameter'
  readonly name: string
  readonly in: ParameterLocation
  readonly required: boolean
  readonly deprecated: boolean
  readonly description?: string
  readonly schema: Schema
  /** The media type when the parameter is described by `content` instead of `schema`. */
  readonly mediaType?: string
  readonly style?: string
  readonly explode?: boolean
  readonly allowEmptyValue?: boolean
  readonly allowReserved?: boolean
  readonly example?: unknown
  /** `x-*` extensions, as written. */
  readonly extensions?: Readonly<Record<string, unknown>>
  /** Named example objects, `$ref`s followed, as written. */
  readonly examples?: Readonly<Record<string, unknown>>
}

export type MediaType = {
  /** Any value when the media type has no `schema`. */
  readonly schema: Schema
  /** Set when the media type has no `schema`, so that its absence can be told from `{}`. */
  readonly schemaOmitted?: true
  readonly example?: unknown
  /** Named example objects, `$ref`s followed, as written. */
  readonly examples?: Readonly<Record<string, unknown>>
  readonly encoding?: Readonly<Record<string, Encoding>>
}

export type Encoding = {
  readonly contentType?: string
  readonly style?: string
  readonly explode?: boolean
  readonly allowReserved?: boolean
  readonly headers?: Readonly<Record<string, Header | ComponentRef<'headers'>>>
}

export type RequestBody = {
  readonly kind: 'requestBody'
  readonly description?: string
  readonly required: boolean
  readonly content: Readonly<Record<string, MediaType>>
}

export type Header = {
  readonly kind: 'header'
  readonly description?: string
  readonly required: boolean
  readonly deprecated: boolean
  readonly schema: Schema
  /** `simple` is the only style a header has; absent when not written. */
  readonly style?: string
  readonly explode?: boolean
  readonly example?: unknown
  /** Named example objects, `$ref`s followed, as written. */
  readonly examples?: Readonly<Record<string, unknown>>
  /** `x-*` extensions, as written. */
  readonly extensions?: Readonly<Record<string, unknown>>
}

export type Response = {
  readonly kind: 'response'
  readonly description: string
  readonly headers: Readonly<Record<string, Header | ComponentRef<'headers'>>>
  readonly content: Readonly<Record<string, MediaType>>
}

/** One entry of a security requirement list: scheme name → scopes. */
export type SecurityRequirement = Readonly<Record<string, readonly string[]>>

export type Server = {
  readonly url: string
  readonly description?: string
  readonly variables?: Readonly<
    Record<
      string,
      { readonly default: string; readonly enum?: readonly string[]; readonly description?: string }
    >
  >
}

type OperationFields = {
  readonly method: HttpMethod
  readonly operationId?: string
  readonly summary?: string
  readonly description?: string
  readonly externalDocs?: ExternalDocs
  readonly tags: readonly string[]
  readonly deprecated: boolean
  /** Path-level and operation-level parameters, merged (an operation's own wins by name and location). */
  readonly parameters: readonly (Parameter | ComponentRef<'parameters'>)[]
  readonly requestBody?: RequestBody | ComponentRef<'requestBodies'>
  /** Status code (`200`, `4XX`, `default`) → response. */
  readonly responses: Readonly<Record<string, Response | ComponentRef<'responses'>>>
  /** Absent when the operation inherits the document's security. */
  readonly security?: readonly SecurityRequirement[]
  readonly servers?: readonly Server[]
  readonly extensions?: Readonly<Record<string, unknown>>
}

/** One path × method of an OpenAPI document. */
export type HttpOperation = OperationFields & { readonly kind: 'http'; readonly path: string }

/** One name × method under a 3.1 document's `webhooks`. */
export type WebhookOperation = OperationFields & { readonly kind: 'webhook'; readonly name: string }

export type GraphqlRootKind = 'query' | 'mutation' | 'subscription'

export type GraphqlArgument = {
  readonly name: string
  readonly required: boolean
  readonly description?: string
  readonly schema: Schema
  readonly defaultValue?: unknown
}

/** A root field of a GraphQL schema (`Query.user`, `Mutation.createUser`). */
export type GraphqlOperation = {
  readonly kind: 'graphql'
  readonly rootKind: GraphqlRootKind
  readonly fieldName: string
  readonly description?: string
  readonly deprecated: boolean
  readonly deprecationReason?: string
  readonly arguments: readonly GraphqlArgument[]
  readonly returnType: Schema
}
