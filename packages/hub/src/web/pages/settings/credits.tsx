import { Hono } from 'hono'
import { AdminError } from '../../../accounts/admin.js'
import { setCreditThreshold } from '../../../credits/admin.js'
import type { CreditEntryRow } from '../../../store/schema.js'
import { Badge, Empty, Field, Form, Time, Table } from '../../components.js'
import type { WebContext, WebEnv } from '../../env.js'
import { formText } from '../../forms.js'
import { redirectWith } from '../../responses.js'
import {
  openOrg,
  openOrgAsOwner,
  orgPage,
  orgSettingsUrl,
  OwnersOnly,
  type OrgView,
} from './org-context.js'

/** Ledger entries per page, newest first. */
const PAGE_SIZE = 50

/**
 * `/{org}/settings/credits`, the `getMoreCreditsUrl` of answers (docs/api/credits.md): the
 * balance, the low-credit threshold (owners change it) and the ledger. Credits themselves are
 * granted by the hub's operator.
 */
export const creditPages = new Hono<WebEnv>()

creditPages.get('/:org/settings/credits', async (c) => {
  const view = await openOrg(c)
  if (view instanceof Response) return view
  return creditsPage(c, view, {})
})

creditPages.post('/:org/settings/credits/threshold', async (c) => {
  const view = await openOrgAsOwner(c)
  if (view instanceof Response) return view
  const value = formText(await c.req.parseBody(), 'threshold').trim()
  try {
    const set = await setCreditThreshold(c.get('hub').store, view.org.handle, value)
    return redirectWith(c, orgSettingsUrl(view.org.handle, 'credits'), {
      kind: 'success',
      message:
        set.lowCreditThreshold === 0
          ? 'The low-credit alert is off.'
          : `Answers carry a low-credit alert while the balance is below ${set.lowCreditThreshold}.`,
    })
  } catch (error) {
    if (!(error instanceof AdminError)) throw error
    const message = `The threshold must be a whole number from 0 to 1,000,000,000.`
    return creditsPage(c, view, { threshold: value, error: message }, 422)
  }
})

type Ledger = { entry: CreditEntryRow; balance: number }[]

async function creditsPage(
  c: WebContext,
  view: OrgView,
  form: { threshold?: string; error?: string },
  status: 200 | 422 = 200,
) {
  const { store } = c.get('hub')
  const [entries, threshold] = await Promise.all([
    store.credits.entries(view.org.id),
    store.credits.lowCreditThreshold(view.org.id),
  ])
  // The balance after each entry: the ledger is the sum of its entries, oldest first.
  let running = 0
  const ledger: Ledger = entries.map((entry) => {
    running += entry.kind === 'charge' ? -entry.amount : entry.amount
    return { entry, balance: running }
  })
  const balance = running
  const before = Number(c.req.query('before'))
  const older = Number.isSafeInteger(before) && before > 0
  const shown = ledger
    .filter(({ entry }) => !older || entry.seq < before)
    .reverse()
    .slice(0, PAGE_SIZE)
  const last = shown.at(-1)?.entry.seq
  const more = last !== undefined && last > 1
  const org = view.org.handle
  const low = balance < threshold
  return orgPage(
    c,
    view,
    { tab: 'credits', status },
    <>
      <div class="grid2">
        <section class="card">
          <h2>Balance</h2>
          <p class="balance" data-testid="balance">
            <strong>{balance.toLocaleString('en')}</strong> credit{balance === 1 ? '' : 's'}{' '}
            {low ? <Badge kind="warning">low</Badge> : null}
          </p>
          <p class="muted">
            Calls that cost more than the balance are refused with 402{' '}
            <code>insufficient_credits</code>.
          </p>
          <p>
            <strong>Getting more credits.</strong> Credits are granted by the operator of this hub,
            not on this page: ask them to run{' '}
            <code>svc-hub admin grant-credits {org} &lt;amount&gt;</code>.
          </p>
        </section>
        <section class="card">
          <h2>Low-credit alert</h2>
          <p data-testid="threshold">
            {threshold === 0 ? (
              'Off: answers never carry a low-credit alert.'
            ) : (
              <>
                While the balance is below {threshold.toLocaleString('en')}, answers that report
                what a call cost carry a <code>lowCreditAlert</code> that links here.
              </>
            )}
          </p>
          {view.role === 'owner' ? (
            <>
              <Form action={`/${org}/settings/credits/threshold`} csrfToken={c.get('csrfToken')}>
                <Field
                  name="threshold"
                  label="Threshold"
                  type="number"
                  hint="Whole credits; 0 turns the alert off."
                  value={form.threshold ?? String(threshold)}
                  error={form.error}
                  required
                />
                <div>
                  <button type="submit">Set threshold</button>
                </div>
              </Form>
            </>
          ) : (
            <OwnersOnly view={view} what="change the threshold" />
          )}
        </section>
      </div>
      <h2>Ledger</h2>
      {shown.length === 0 ? (
        <Empty>No credits have been granted or used yet.</Empty>
      ) : (
        <Table testid="ledger">
          <thead>
            <tr>
              <th>#</th>
              <th>When</th>
              <th>Kind</th>
              <th>Credits</th>
              <th>Balance</th>
              <th>Reason</th>
              <th>Request</th>
            </tr>
          </thead>
          <tbody>
            {shown.map(({ entry, balance }) => (
              <tr data-entry={entry.id}>
                <td>{entry.seq}</td>
                <td>
                  <Time at={entry.created_at} />
                </td>
                <td>
                  <Badge kind={KIND_BADGE[entry.kind]}>{entry.kind}</Badge>
                </td>
                <td>
                  {entry.kind === 'charge' ? '−' : '+'}
                  {entry.amount.toLocaleString('en')}
                </td>
                <td>{balance.toLocaleString('en')}</td>
                <td>
                  {entry.reason ?? <span class="muted">—</span>}
                  {entry.refund_of ? <div class="hint">refunds {entry.refund_of}</div> : null}
                </td>
                <td>
                  {entry.request_id ? (
                    <code class="hint">{entry.request_id}</code>
                  ) : (
                    <span class="muted">operator</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {older || more ? (
        <p class="row">
          {older ? <a href={orgSettingsUrl(org, 'credits')}>Newest entries</a> : null}
          {more ? (
            <a href={`${orgSettingsUrl(org, 'credits')}?before=${last}`}>Older entries</a>
          ) : null}
        </p>
      ) : null}
    </>,
  )
}

const KIND_BADGE: Record<CreditEntryRow['kind'], string> = {
  grant: 'succeeded',
  charge: 'pending',
  refund: 'info',
}
