import { ApiSchema, type Api } from '@svc/hub-api'
import type { CommandIO } from '../../command-io.js'
import { RecipeError } from '../../errors.js'
import {
  formatApiName,
  hubCall,
  hubCredentials,
  parseApiName,
  type HubOptions,
  type SubcommandRecipe,
} from './common.js'

export type ApiCreateOptions = HubOptions & {
  readonly api?: string | undefined
  readonly name?: string | undefined
  readonly sourceUrl?: string | undefined
  readonly visibility?: 'public' | 'private' | undefined
}

export type ApiCreateResult = {
  readonly type: 'created'
  readonly origin: string
  readonly api: Api
}

export const CREATE_RECIPE: SubcommandRecipe = {
  command: 'api create',
  usage:
    'svc api create <owner/slug> [--name <name>] [--visibility private|public] [--source-url <url>] [--origin <url>] [--token <pat>] [--json]',
  example: 'svc api create acme/payments --name "Payments API"',
}

/** `svc api create <owner/slug>`: `POST /v1/apis`; the name defaults to the slug. */
export async function apiCreate(
  options: ApiCreateOptions,
  io: CommandIO,
): Promise<ApiCreateResult> {
  const name = parseApiName(options.api, CREATE_RECIPE)
  if (options.sourceUrl !== undefined && !isHttpUrl(options.sourceUrl))
    throw new RecipeError({
      ...CREATE_RECIPE,
      problem: `--source-url '${options.sourceUrl}' is not an http(s) URL.`,
      discover: 'svc api create --help',
    })
  const credentials = hubCredentials(options, io, CREATE_RECIPE, true)
  const { body } = await hubCall(credentials, 'api create', formatApiName(name), {
    method: 'POST',
    path: '/v1/apis',
    answer: ApiSchema,
    json: {
      owner: name.owner,
      slug: name.slug,
      name: options.name ?? name.slug,
      visibility: options.visibility ?? 'private',
      ...(options.sourceUrl === undefined ? {} : { sourceUrl: options.sourceUrl }),
    },
  })
  return { type: 'created', origin: credentials.origin, api: body }
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}
