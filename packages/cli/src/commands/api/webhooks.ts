import {
  DeliveryListSchema,
  DeliverySchema,
  WebhookListSchema,
  WebhookWithSecretSchema,
  type Delivery,
  type Webhook,
  type WebhookMinLevel,
  type WebhookWithSecret,
} from '@svc/hub-api'
import type { CommandIO } from '../../command-io.js'
import { RecipeError } from '../../errors.js'
import type { Credentials } from '../../hub/credentials.js'
import {
  allPages,
  apiPath,
  formatApiName,
  hubCall,
  hubCredentials,
  parseApiName,
  requireArgument,
  type ApiName,
  type HubOptions,
  type SubcommandRecipe,
} from './common.js'

type WebhookOptions = HubOptions & { readonly api?: string | undefined }

export type WebhooksListResult = {
  readonly type: 'webhooks'
  readonly api: string
  readonly webhooks: readonly Webhook[]
}
export type WebhookAddResult = {
  readonly type: 'webhook'
  readonly api: string
  readonly webhook: WebhookWithSecret
}
export type WebhookDeliveryResult = {
  readonly type: 'test' | 'retry'
  readonly api: string
  readonly delivery: Delivery
}
export type WebhookDeliveriesResult = {
  readonly type: 'deliveries'
  readonly api: string
  readonly webhookId: string
  /** Newest first. */
  readonly deliveries: readonly Delivery[]
  /** Whether older deliveries were left out (more than `--limit`). */
  readonly more: boolean
}

const USAGE = {
  list: 'svc api webhooks list <owner/slug> [--origin <url>] [--token <pat>] [--json]',
  add: 'svc api webhooks add <owner/slug> <url> [--description <text>] [--min-level breaking|warning|info] [--inactive] [--json]',
  test: 'svc api webhooks test <owner/slug> <webhook-id> [--json]',
  deliveries:
    'svc api webhooks deliveries <owner/slug> <webhook-id> [--state pending|succeeded|failed] [--limit <n>] [--json]',
  retry: 'svc api webhooks retry <owner/slug> <webhook-id> <delivery-id> [--json]',
}
const EXAMPLE = {
  list: 'svc api webhooks list acme/payments',
  add: 'svc api webhooks add acme/payments https://ci.example.com/hooks/svc --min-level breaking',
  test: 'svc api webhooks test acme/payments whk_5f0c7e2b9d4a1c3e8f6b2a70',
  deliveries:
    'svc api webhooks deliveries acme/payments whk_5f0c7e2b9d4a1c3e8f6b2a70 --state failed',
  retry:
    'svc api webhooks retry acme/payments whk_5f0c7e2b9d4a1c3e8f6b2a70 dlv_0a1b2c3d4e5f60718293a4b5',
}
const recipe = (name: keyof typeof USAGE): SubcommandRecipe => ({
  command: `api webhooks ${name}`,
  usage: USAGE[name],
  example: EXAMPLE[name],
})

/** `svc api webhooks list <owner/slug>`: every webhook of the API, oldest first (no secrets). */
export async function webhooksList(
  options: WebhookOptions,
  io: CommandIO,
): Promise<WebhooksListResult> {
  const { name, credentials } = open(options, io, recipe('list'))
  const webhooks = await allPages(
    credentials,
    'api webhooks',
    formatApiName(name),
    { path: apiPath(name, '/webhooks'), answer: WebhookListSchema },
    (page) => page.webhooks,
  )
  return { type: 'webhooks', api: formatApiName(name), webhooks }
}

/** `svc api webhooks add <owner/slug> <url>`: the answer holds the signing secret, shown once. */
export async function webhookAdd(
  options: WebhookOptions & {
    readonly url?: string | undefined
    readonly description?: string | undefined
    readonly minLevel?: WebhookMinLevel | undefined
    readonly inactive?: boolean | undefined
  },
  io: CommandIO,
): Promise<WebhookAddResult> {
  const name = parseApiName(options.api, recipe('add'))
  const url = requireArgument(
    options.url,
    'the URL the hub POSTs events to (http or https)',
    recipe('add'),
    `svc api webhooks list ${formatApiName(name)}`,
  )
  if (!/^https?:\/\/\S+$/i.test(url))
    throw new RecipeError({
      ...recipe('add'),
      problem: `'${url}' is not an http(s) URL.`,
      discover: `svc api webhooks list ${formatApiName(name)}`,
    })
  const credentials = hubCredentials(options, io, recipe('add'), true)
  const { body } = await call(
    credentials,
    name,
    'POST',
    apiPath(name, '/webhooks'),
    WebhookWithSecretSchema,
    {
      url,
      ...(options.description === undefined ? {} : { description: options.description }),
      ...(options.minLevel === undefined ? {} : { minLevel: options.minLevel }),
      active: !options.inactive,
    },
  )
  return { type: 'webhook', api: formatApiName(name), webhook: body }
}

/** `svc api webhooks test <owner/slug> <webhook-id>`: queues a test event for that webhook. */
export async function webhookTest(
  options: WebhookOptions & { readonly webhookId?: string | undefined },
  io: CommandIO,
): Promise<WebhookDeliveryResult> {
  const { name, credentials } = open(options, io, recipe('test'))
  const webhookId = webhookIdOf(options.webhookId, name, recipe('test'))
  const { body } = await call(
    credentials,
    name,
    'POST',
    apiPath(name, `/webhooks/${webhookId}/test`),
    DeliverySchema,
  )
  return { type: 'test', api: formatApiName(name), delivery: body }
}

/** `svc api webhooks deliveries <owner/slug> <webhook-id>`: the newest deliveries, with attempts. */
export async function webhookDeliveries(
  options: WebhookOptions & {
    readonly webhookId?: string | undefined
    readonly state?: 'pending' | 'succeeded' | 'failed' | undefined
    readonly limit?: number | undefined
  },
  io: CommandIO,
): Promise<WebhookDeliveriesResult> {
  const { name, credentials } = open(options, io, recipe('deliveries'))
  const webhookId = webhookIdOf(options.webhookId, name, recipe('deliveries'))
  const query = new URLSearchParams({ limit: String(options.limit ?? 20) })
  if (options.state) query.set('state', options.state)
  const { body } = await call(
    credentials,
    name,
    'GET',
    apiPath(name, `/webhooks/${webhookId}/deliveries?${query}`),
    DeliveryListSchema,
  )
  return {
    type: 'deliveries',
    api: formatApiName(name),
    webhookId,
    deliveries: body.deliveries,
    more: body.nextCursor !== null,
  }
}

/** `svc api webhooks retry <owner/slug> <webhook-id> <delivery-id>`: attempted again at once. */
export async function webhookRetry(
  options: WebhookOptions & {
    readonly webhookId?: string | undefined
    readonly deliveryId?: string | undefined
  },
  io: CommandIO,
): Promise<WebhookDeliveryResult> {
  const { name, credentials } = open(options, io, recipe('retry'))
  const webhookId = webhookIdOf(options.webhookId, name, recipe('retry'))
  const deliveryId = requireArgument(
    options.deliveryId,
    'the delivery to retry (dlv_…)',
    recipe('retry'),
    `svc api webhooks deliveries ${formatApiName(name)} ${webhookId}`,
  )
  if (!/^dlv_[0-9a-f]{24}$/.test(deliveryId))
    throw new RecipeError({
      ...recipe('retry'),
      problem: `'${deliveryId}' is not a delivery id (dlv_ and 24 hex digits).`,
      discover: `svc api webhooks deliveries ${formatApiName(name)} ${webhookId}`,
    })
  const { body } = await call(
    credentials,
    name,
    'POST',
    apiPath(name, `/webhooks/${webhookId}/deliveries/${deliveryId}/retry`),
    DeliverySchema,
  )
  return { type: 'retry', api: formatApiName(name), delivery: body }
}

function open(options: WebhookOptions, io: CommandIO, of: SubcommandRecipe) {
  const name = parseApiName(options.api, of)
  return { name, credentials: hubCredentials(options, io, of, true) }
}

function webhookIdOf(value: string | undefined, name: ApiName, of: SubcommandRecipe): string {
  const discover = `svc api webhooks list ${formatApiName(name)}`
  const id = requireArgument(value, 'the webhook (whk_…)', of, discover)
  if (/^whk_[0-9a-f]{24}$/.test(id)) return id
  throw new RecipeError({
    ...of,
    problem: `'${id}' is not a webhook id (whk_ and 24 hex digits).`,
    discover,
  })
}

function call<T>(
  credentials: Credentials,
  name: ApiName,
  method: 'GET' | 'POST',
  path: string,
  answer: Parameters<typeof hubCall<T>>[3]['answer'],
  json?: unknown,
) {
  return hubCall(credentials, 'api webhooks', formatApiName(name), {
    method,
    path,
    answer,
    ...(json === undefined ? {} : { json }),
  })
}
