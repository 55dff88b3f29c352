import { confirm, isCancel } from '@clack/prompts'
import {
  DeliveryListSchema,
  DeliverySchema,
  NoContentSchema,
  WebhookListSchema,
  WebhookSchema,
  WebhookWithSecretSchema,
  type Delivery,
  type Webhook,
  type DiffProfile,
  type WebhookMinLevel,
  type WebhookWithSecret,
} from '@svc/hub-api'
import type { CommandIO } from '../../command-io.js'
import { RecipeError } from '../../errors.js'
import type { Credentials } from '../../hub/credentials.js'
import { canPrompt, isStrict, promptStreams } from '../../interactive.js'
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
export type WebhookUpdateResult = {
  readonly type: 'updated'
  readonly api: string
  /** With its new `secret` after `--rotate-secret`, the one time the hub shows it. */
  readonly webhook: Webhook | WebhookWithSecret
}
export type WebhookDeleteResult =
  | { readonly type: 'deleted'; readonly api: string; readonly webhookId: string }
  /** A No at the confirmation: nothing was deleted. */
  | { readonly type: 'aborted'; readonly api: string; readonly webhookId: string }
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
  add: 'svc api webhooks add <owner/slug> <url> [--description <text>] [--min-level breaking|warning|info] [--profile wire|sdk] [--inactive] [--json]',
  test: 'svc api webhooks test <owner/slug> <webhook-id> [--json]',
  deliveries:
    'svc api webhooks deliveries <owner/slug> <webhook-id> [--state pending|succeeded|failed] [--limit <n>] [--json]',
  retry: 'svc api webhooks retry <owner/slug> <webhook-id> <delivery-id> [--json]',
  update:
    'svc api webhooks update <owner/slug> <webhook-id> [--url <url>] [--description <text>] [--min-level breaking|warning|info] [--profile wire|sdk|api] [--active | --inactive] [--rotate-secret] [--json]',
  delete: 'svc api webhooks delete <owner/slug> <webhook-id> [--yes] [--json]',
}
const EXAMPLE = {
  list: 'svc api webhooks list acme/payments',
  add: 'svc api webhooks add acme/payments https://ci.example.com/hooks/svc --min-level breaking',
  test: 'svc api webhooks test acme/payments whk_5f0c7e2b9d4a1c3e8f6b2a70',
  deliveries:
    'svc api webhooks deliveries acme/payments whk_5f0c7e2b9d4a1c3e8f6b2a70 --state failed',
  retry:
    'svc api webhooks retry acme/payments whk_5f0c7e2b9d4a1c3e8f6b2a70 dlv_0a1b2c3d4e5f60718293a4b5',
  update: 'svc api webhooks update acme/payments whk_5f0c7e2b9d4a1c3e8f6b2a70 --min-level breaking',
  delete: 'svc api webhooks delete acme/payments whk_5f0c7e2b9d4a1c3e8f6b2a70 --yes',
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
    /** The profile its events are judged with; the API's `diffProfile` when not given. */
    readonly profile?: DiffProfile | undefined
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
      ...(options.profile === undefined ? {} : { profile: options.profile }),
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

/**
 * `svc api webhooks update <owner/slug> <webhook-id>`: `PATCH` what the flags change, then, with
 * `--rotate-secret`, a new signing secret, which the answer shows this once.
 */
export async function webhookUpdate(
  options: WebhookOptions & {
    readonly webhookId?: string | undefined
    readonly url?: string | undefined
    readonly description?: string | undefined
    readonly minLevel?: WebhookMinLevel | undefined
    /** `api`: the API's `diffProfile` from now on. */
    readonly profile?: DiffProfile | 'api' | undefined
    readonly active?: boolean | undefined
    readonly inactive?: boolean | undefined
    readonly rotateSecret?: boolean | undefined
  },
  io: CommandIO,
): Promise<WebhookUpdateResult> {
  const of = recipe('update')
  const name = parseApiName(options.api, of)
  const webhookId = webhookIdOf(options.webhookId, name, of)
  const discover = 'svc api webhooks update --help'
  if (options.active && options.inactive)
    throw new RecipeError({ ...of, problem: 'Give --active or --inactive, not both.', discover })
  if (options.url !== undefined && !/^https?:\/\/\S+$/i.test(options.url))
    throw new RecipeError({ ...of, problem: `'${options.url}' is not an http(s) URL.`, discover })
  const changes = {
    ...(options.url === undefined ? {} : { url: options.url }),
    // An empty description removes it, as the web app's empty field does.
    ...(options.description === undefined ? {} : { description: options.description || null }),
    ...(options.minLevel === undefined ? {} : { minLevel: options.minLevel }),
    ...(options.profile === undefined
      ? {}
      : { profile: options.profile === 'api' ? null : options.profile }),
    ...(options.active ? { active: true } : options.inactive ? { active: false } : {}),
  }
  if (Object.keys(changes).length === 0 && !options.rotateSecret)
    throw new RecipeError({
      ...of,
      problem:
        'Nothing to change: give --url, --description, --min-level, --profile, --active, --inactive or --rotate-secret.',
      discover,
    })
  const credentials = hubCredentials(options, io, of, true)
  const path = apiPath(name, `/webhooks/${webhookId}`)
  let webhook: Webhook | WebhookWithSecret | undefined
  if (Object.keys(changes).length > 0)
    webhook = (await call(credentials, name, 'PATCH', path, WebhookSchema, changes)).body
  if (options.rotateSecret)
    webhook = (
      await call(credentials, name, 'POST', `${path}/rotate-secret`, WebhookWithSecretSchema)
    ).body
  return { type: 'updated', api: formatApiName(name), webhook: webhook! }
}

/**
 * `svc api webhooks delete <owner/slug> <webhook-id>`: the webhook goes with its delivery log,
 * for good, so it is asked on a terminal; where nobody can answer (strict mode, a pipe), only
 * `--yes` deletes.
 */
export async function webhookDelete(
  options: WebhookOptions & {
    readonly webhookId?: string | undefined
    readonly yes?: boolean | undefined
  },
  io: CommandIO,
): Promise<WebhookDeleteResult> {
  const of = recipe('delete')
  const name = parseApiName(options.api, of)
  const webhookId = webhookIdOf(options.webhookId, name, of)
  const asks = !options.yes && canPrompt(options, io)
  if (!options.yes && !asks)
    throw new RecipeError({
      ...of,
      problem: `Deleting ${webhookId} deletes its delivery log too, and cannot be undone: pass --yes to confirm (${isStrict(options) ? '--json and --no-input never ask' : 'there is no terminal to ask on'}).`,
      discover: `svc api webhooks list ${formatApiName(name)}`,
    })
  const credentials = hubCredentials(options, io, of, true)
  const path = apiPath(name, `/webhooks/${webhookId}`)
  const done = { api: formatApiName(name), webhookId }
  if (asks) {
    const { body: hook } = await call(credentials, name, 'GET', path, WebhookSchema)
    const answer = await confirm({
      message: `Delete webhook ${webhookId} of ${done.api} (${hook.url}) and its delivery log? This cannot be undone.`,
      initialValue: false,
      ...promptStreams(io),
    })
    if (isCancel(answer) || !answer) return { type: 'aborted', ...done }
  }
  await call(credentials, name, 'DELETE', path, NoContentSchema)
  return { type: 'deleted', ...done }
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
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
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
