import type {
  GraphqlArgument,
  GraphqlOperation,
  Header,
  HttpOperation,
  Parameter,
  RequestBody,
  Response,
  SecurityRequirement,
  Server,
  WebhookOperation,
  ComponentRef,
} from './operation.js'
import type { ExternalDocs, Schema } from './schema.js'
import type { SecurityScheme } from './security-scheme.js'

/** Named, reusable parts of a description. GraphQL types live under `schemas`. */
export type Components = {
  readonly schemas: Readonly<Record<string, Schema>>
  readonly parameters: Readonly<Record<string, Parameter | ComponentRef<'parameters'>>>
  readonly responses: Readonly<Record<string, Response | ComponentRef<'responses'>>>
  readonly requestBodies: Readonly<Record<string, RequestBody | ComponentRef<'requestBodies'>>>
  readonly headers: Readonly<Record<string, Header | ComponentRef<'headers'>>>
  readonly securitySchemes: Readonly<Record<string, SecurityScheme>>
}

export type ApiInfo = {
  readonly title: string
  readonly version: string
  readonly description?: string
  /** OpenAPI 3.1 only. */
  readonly summary?: string
  readonly termsOfService?: string
  readonly contact?: Readonly<{ name?: string; url?: string; email?: string }>
  readonly license?: Readonly<{ name?: string; url?: string; identifier?: string }>
}

export type Tag = {
  readonly name: string
  readonly description?: string
  readonly externalDocs?: ExternalDocs
}

type ModelFields = {
  readonly info: ApiInfo
  readonly components: Components
}

/** An OpenAPI description (2.0 after conversion, 3.0 or 3.1). */
export type OasModel = ModelFields & {
  readonly protocol: 'oas'
  /** The `openapi` version the document was parsed as (`3.0.3`, `3.1.0`; `3.0.0` for converted 2.0). */
  readonly openapi: string
  readonly servers: readonly Server[]
  readonly operations: readonly HttpOperation[]
  readonly webhooks: readonly WebhookOperation[]
  readonly security?: readonly SecurityRequirement[]
  readonly tags: readonly Tag[]
  readonly externalDocs?: ExternalDocs
}

/** A GraphQL schema: root fields are operations, named types are schema components. */
export type GqlModel = ModelFields & {
  readonly protocol: 'gql'
  readonly operations: readonly GraphqlOperation[]
  /** Type name → field name → its arguments, for the fields of non-root types that take any. */
  readonly fieldArguments: Readonly<
    Record<string, Readonly<Record<string, readonly GraphqlArgument[]>>>
  >
  readonly webhooks: readonly []
}

/** One model for both protocols, told apart by `protocol`. */
export type ApiModel = OasModel | GqlModel
