import type { Api, WebhookMinLevel } from '@svc/hub-api'
import type { ApiErrorBody } from '../../../../errors/api-error.js'
import { Badge, Field, Form, Select } from '../../../components.js'
import type { WebContext } from '../../../env.js'
import { formText, type FormBody } from '../../../forms.js'
import { signInRedirect } from '../../../responses.js'
import { apiPath, fieldErrors, loadApi, readFailure, v1Api } from '../shared.js'

export const enc = encodeURIComponent
export const hooksPath = (api: Api) => `${apiPath(api.owner, api.slug)}/webhooks`
export const hookPath = (api: Api, id: string) => `${hooksPath(api)}/${enc(id)}`
export const v1Hooks = (api: Api) => `${v1Api(api.owner, api.slug)}/webhooks`
export const v1Hook = (api: Api, id: string) => `${v1Hooks(api)}/${enc(id)}`

/** The readable API of the path, for a signed-in viewer; else the answer to give. */
export async function managedApi(c: WebContext): Promise<Api | Response> {
  const loaded = await loadApi(c)
  if (!loaded.ok) return readFailure(c, loaded)
  if (!c.get('viewer')) return signInRedirect(c)
  return loaded.data
}

/** A refused write: 401 to sign in, 403 and 404 as not found; the rest is the form's to show. */
export function hidden(status: number): boolean {
  return status === 401 || status === 403 || status === 404
}

/**
 * `minLevel` and `profile` as posted: '' when the form had none (the webhook's is then kept);
 * `profile` is `api` for "the API's".
 */
export type HookForm = {
  url?: string
  description?: string
  active?: boolean
  minLevel?: string
  profile?: string
}
export type FormState = { values?: HookForm; error?: string; errors?: Record<string, string> }

export function hookValues(form: FormBody): Required<HookForm> {
  return {
    url: formText(form, 'url').trim(),
    description: formText(form, 'description').trim(),
    active: formText(form, 'active') === 'on',
    minLevel: formText(form, 'minLevel'),
    profile: formText(form, 'profile'),
  }
}

/** The webhook's `profile` for the API, when the form gave one (null: the API's). */
export function profileJson(values: HookForm): { profile?: string | null } {
  if (!values.profile) return {}
  return { profile: values.profile === 'api' ? null : values.profile }
}

/** A webhook's profile as the form shows it: `api` when it follows the API's. */
export function profileValue(profile: string | null): string {
  return profile ?? 'api'
}

/** The webhook's `minLevel` for the API, when the form gave one. */
export function minLevelJson(values: HookForm): { minLevel?: string } {
  return values.minLevel ? { minLevel: values.minLevel } : {}
}

const PROFILES = [
  { value: 'api', label: "the API's diff profile" },
  { value: 'wire', label: 'wire: what requests and responses carry' },
  { value: 'sdk', label: 'sdk: also the code generated from the description' },
] as const

const MIN_LEVELS = [
  { value: 'info', label: 'info: every revision that changes something' },
  { value: 'warning', label: 'warning: revisions with a warning or a breaking change' },
  { value: 'breaking', label: 'breaking: revisions with a breaking change' },
] as const satisfies readonly { value: WebhookMinLevel; label: string }[]

export function refusal(error: ApiErrorBody): Pick<FormState, 'error' | 'errors'> {
  const errors = fieldErrors(error)
  return {
    error: Object.keys(errors).length > 0 ? 'Not saved: see the fields below.' : error.message,
    errors,
  }
}

/**
 * Where a receiver may live. A local trial's guard admits loopback too (docs/hub/running.md),
 * which is what someone trying the hub on their machine needs to know before they type a URL;
 * only for a page opened on that machine, not through a proxy.
 */
function urlHint(c: WebContext): string {
  if (c.get('hub').config.outboundMode === 'local-trial' && c.get('client').local)
    return 'Where the hub POSTs the events: http or https, on a public address, or on this machine (such as http://localhost:9000/hook): this hub is a local trial, which listens on loopback only, so loopback receivers are allowed.'
  return 'Where the hub POSTs the events: http or https, on a public address (a private one only if the operator admits it with SVC_HUB_ALLOW_PRIVATE_NETWORKS).'
}

export function HookFields(props: {
  c: WebContext
  action: string
  values: HookForm
  errors: Record<string, string>
  submit: string
}) {
  const { values, errors } = props
  return (
    <Form action={props.action} csrfToken={props.c.get('csrfToken')}>
      <Field
        name="url"
        label="Payload URL"
        type="url"
        hint={urlHint(props.c)}
        value={values.url ?? ''}
        error={errors.url}
        required
        placeholder="https://example.com/hooks/svc"
      />
      <Field
        name="description"
        label="Description (optional)"
        value={values.description ?? ''}
        error={errors.description}
      />
      <Select
        name="minLevel"
        label="Minimum level"
        hint="Revision events go to this webhook only when the revision has a change at this level or above. Test events always do."
        options={MIN_LEVELS}
        value={values.minLevel || 'info'}
        error={errors.minLevel}
      />
      <Select
        name="profile"
        label="Diff profile"
        hint="Whose breakage the revision events are judged for: their counts, and the level compared with the minimum. sdk adds the changes that break code generated from the description."
        options={PROFILES}
        value={values.profile || 'api'}
        error={errors.profile}
      />
      <label class="check">
        <input
          type="checkbox"
          name="active"
          value="on"
          {...(values.active ? { checked: true } : {})}
        />
        Active: send revision events to it
      </label>
      <div>
        <button type="submit" class="primary">
          {props.submit}
        </button>
      </div>
    </Form>
  )
}

export function ActiveBadge({ active }: { active: boolean }) {
  return active ? <Badge kind="active">active</Badge> : <Badge>inactive</Badge>
}
