import { Hono } from 'hono'
import { AdminError, addMember, removeMember } from '../../../accounts/admin.js'
import type { Role } from '../../../store/schema.js'
import {
  ActionButton,
  Badge,
  Field,
  Form,
  FormError,
  Select,
  Time,
  Table,
} from '../../components.js'
import type { WebContext, WebEnv } from '../../env.js'
import { formText } from '../../forms.js'
import { notFoundPage, redirectWith } from '../../responses.js'
import {
  openOrg,
  openOrgAsOwner,
  orgPage,
  orgSettingsUrl,
  OwnersOnly,
  type OrgView,
} from './org-context.js'

const ROLES: readonly Role[] = ['owner', 'writer', 'reader']
const ROLE_HINT =
  'Owners manage the organisation; writers publish, push and create; readers read its private APIs, stacks and projects.'

type AddForm = { handle: string; role: string; error?: string }

/** `/{org}/settings/members`: the members and their roles; owners add, change and remove. */
export const memberPages = new Hono<WebEnv>()

memberPages.get('/:org/settings/members', async (c) => {
  const view = await openOrg(c)
  if (view instanceof Response) return view
  return membersPage(c, view, { handle: '', role: 'writer' })
})

memberPages.post('/:org/settings/members', async (c) => {
  const view = await openOrgAsOwner(c)
  if (view instanceof Response) return view
  const body = await c.req.parseBody()
  const form: AddForm = {
    handle: formText(body, 'handle').trim().toLowerCase(),
    role: formText(body, 'role'),
  }
  const { store } = c.get('hub')
  const user = form.handle ? await store.accounts.find(form.handle) : undefined
  if (user?.kind === 'user' && (await store.accounts.roleOf(view.org.id, user.id))) {
    return membersPage(
      c,
      view,
      { ...form, error: `${user.handle} is already a member; change the role in the list.` },
      422,
    )
  }
  try {
    const added = await addMember(store, view.org.handle, form.handle, form.role)
    return redirectWith(c, orgSettingsUrl(view.org.handle, 'members'), {
      kind: 'success',
      message: `${added.user} is now ${added.role} of ${added.org}.`,
    })
  } catch (error) {
    if (!(error instanceof AdminError)) throw error
    return membersPage(c, view, { ...form, error: sentence(error.message) }, 422)
  }
})

memberPages.post('/:org/settings/members/:user/role', async (c) => {
  const view = await openOrgAsOwner(c)
  if (view instanceof Response) return view
  const member = await memberOf(c, view)
  if (!member) return notFoundPage(c)
  const role = formText(await c.req.parseBody(), 'role')
  try {
    const set = await addMember(c.get('hub').store, view.org.handle, member, role)
    return redirectWith(c, orgSettingsUrl(view.org.handle, 'members'), {
      kind: 'success',
      message: `${set.user} is now ${set.role} of ${set.org}.`,
    })
  } catch (error) {
    if (!(error instanceof AdminError)) throw error
    return membersPage(c, view, { handle: '', role: 'writer' }, 422, sentence(error.message))
  }
})

memberPages.post('/:org/settings/members/:user/remove', async (c) => {
  const view = await openOrgAsOwner(c)
  if (view instanceof Response) return view
  const member = await memberOf(c, view)
  if (!member) return notFoundPage(c)
  try {
    await removeMember(c.get('hub').store, view.org.handle, member)
  } catch (error) {
    if (!(error instanceof AdminError)) throw error
    return membersPage(c, view, { handle: '', role: 'writer' }, 422, sentence(error.message))
  }
  const self = member === view.viewer.handle
  return redirectWith(c, self ? '/settings' : orgSettingsUrl(view.org.handle, 'members'), {
    kind: 'success',
    message: self
      ? `You left ${view.org.handle}.`
      : `${member} is no longer a member of ${view.org.handle}.`,
  })
})

/** The handle of the URL's `:user` when that user is a member of the organisation. */
async function memberOf(c: WebContext, view: OrgView): Promise<string | undefined> {
  const { store } = c.get('hub')
  const user = await store.accounts.find(c.req.param('user') ?? '')
  if (user?.kind !== 'user') return undefined
  return (await store.accounts.roleOf(view.org.id, user.id)) ? user.handle : undefined
}

/** An admin message as a sentence; one that starts with a handle keeps its lower case. */
function sentence(message: string): string {
  const start = /^(?:there|the) /.test(message)
    ? message.charAt(0).toUpperCase()
    : message.charAt(0)
  return `${start}${message.slice(1)}.`
}

async function membersPage(
  c: WebContext,
  view: OrgView,
  form: AddForm,
  status: 200 | 422 = 200,
  listError?: string,
) {
  const members = await c.get('hub').store.accountSettings.members(view.org.id)
  const owner = view.role === 'owner'
  const org = view.org.handle
  const csrf = c.get('csrfToken')
  return orgPage(
    c,
    view,
    { tab: 'members', status },
    <>
      <FormError message={listError} />
      <Table testid="members">
        <thead>
          <tr>
            <th>Member</th>
            <th>Role</th>
            <th>Since</th>
            {owner ? <th></th> : null}
          </tr>
        </thead>
        <tbody>
          {members.map((member) => (
            <tr data-member={member.handle}>
              <td>
                <a href={`/${member.handle}`}>{member.handle}</a>
                {member.user_id === view.viewer.userId ? <span class="muted"> (you)</span> : null}
              </td>
              <td>
                {owner ? (
                  <Form
                    action={`/${org}/settings/members/${member.handle}/role`}
                    csrfToken={csrf}
                    class="row"
                  >
                    <select name="role" aria-label={`Role of ${member.handle}`}>
                      {ROLES.map((role) => (
                        <option value={role} {...(role === member.role ? { selected: true } : {})}>
                          {role}
                        </option>
                      ))}
                    </select>
                    <button type="submit">Change</button>
                  </Form>
                ) : (
                  <Badge kind="info">{member.role}</Badge>
                )}
              </td>
              <td>
                <Time at={member.created_at} />
              </td>
              {owner ? (
                <td>
                  <ActionButton
                    action={`/${org}/settings/members/${member.handle}/remove`}
                    csrfToken={csrf}
                    label={member.user_id === view.viewer.userId ? 'Leave' : 'Remove'}
                    danger
                  />
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </Table>
      <p class="hint">{ROLE_HINT} An organisation always keeps at least one owner.</p>
      {owner ? (
        <section class="card form-card">
          <h2>Add a member</h2>
          <FormError message={form.error} />
          <Form action={`/${org}/settings/members`} csrfToken={csrf}>
            <Field
              name="handle"
              label="User"
              hint="The handle of a user who has signed up."
              value={form.handle}
              required
            />
            <Select name="role" label="Role" options={ROLES} value={form.role} />
            <div>
              <button type="submit" class="primary">
                Add member
              </button>
            </div>
          </Form>
        </section>
      ) : (
        <OwnersOnly view={view} what="add, change or remove members" />
      )}
    </>,
  )
}
