import { AccountUsageSchema, type AccountUsage, type QuotaUsage } from '@svc/hub-api'
import { Hono } from 'hono'
import { quotaAmount } from '../../../quotas/charge.js'
import { Badge, PageHead, Table } from '../../components.js'
import type { WebContext, WebEnv } from '../../env.js'
import { apiErrorPage, page, signInRedirect } from '../../responses.js'
import { openOrg, orgPage } from './org-context.js'

/**
 * `/settings/usage` (the viewer's own account) and `/{org}/settings/usage`: what the account
 * stores against each of its storage quotas, read through `GET /v1/accounts/{account}/usage`
 * (docs/web/settings.md#usage). Any member sees an organisation's; the hub's operator sets
 * the limits.
 */
export const usagePages = new Hono<WebEnv>()

usagePages.get('/settings/usage', async (c) => {
  const viewer = c.get('viewer')
  if (!viewer) return signInRedirect(c)
  const usage = await readUsage(c, viewer.handle)
  if (usage instanceof Response) return usage
  return page(
    c,
    {
      title: 'Storage usage',
      section: 'settings',
      crumbs: [{ label: 'Settings', href: '/settings' }, { label: 'Storage usage' }],
    },
    <>
      <PageHead
        title="Storage usage"
        lead={<>What {viewer.handle} stores on this hub, against its quotas.</>}
      />
      <UsageTable usage={usage} />
    </>,
  )
})

usagePages.get('/:org/settings/usage', async (c) => {
  const view = await openOrg(c)
  if (view instanceof Response) return view
  const usage = await readUsage(c, view.org.handle)
  if (usage instanceof Response) return usage
  return orgPage(c, view, { tab: 'usage' }, <UsageTable usage={usage} />)
})

async function readUsage(c: WebContext, handle: string): Promise<AccountUsage | Response> {
  const answer = await c.get('api').get(AccountUsageSchema, `/accounts/${handle}/usage`)
  return answer.ok ? answer.data : apiErrorPage(c, answer)
}

const WHAT: Record<QuotaUsage['quota'], string> = {
  revisions: 'API revisions',
  revisionBytes: 'Revision documents',
  stackVersions: 'Stack versions',
  stackVersionBytes: 'Stack bundles and sources',
  runArtifacts: 'Run artifacts',
  runArtifactBytes: 'Run artifact bytes',
  baseFiles: 'Base files',
  baseFileBytes: 'Base file bytes',
}

/** One row per quota: what it counts, used, the limit, how full, and where the limit comes from. */
function UsageTable({ usage }: { usage: AccountUsage }) {
  const amount = (q: QuotaUsage, n: number) => quotaAmount(n, q.unit)
  return (
    <>
      <p class="lead">
        Everything {usage.account} owns counts: the revisions of its APIs, the versions of its
        stacks, the artifacts of its projects&apos; runs and their base files, whoever stored them.
        A push, publish, upload or run that would pass a limit is refused and stores nothing. Old
        run artifacts are removed by the hub&apos;s retention rule, which frees their space.
      </p>
      <Table testid="usage">
        <thead>
          <tr>
            <th>What</th>
            <th>Used</th>
            <th>Limit</th>
            <th>Full</th>
            <th></th>
          </tr>
        </thead>
        <tbody>
          {usage.quotas.map((q) => (
            <tr data-quota={q.quota}>
              <td>{WHAT[q.quota]}</td>
              <td>{amount(q, q.used)}</td>
              <td>{q.limit === null ? 'no limit' : amount(q, q.limit)}</td>
              <td>
                {q.limit === null
                  ? '—'
                  : `${Math.min(100, Math.floor((q.used / q.limit) * 100))} %`}
              </td>
              <td>
                {q.custom ? (
                  <Badge kind="info">own limit</Badge>
                ) : (
                  <span class="muted">default</span>
                )}
                {q.limit !== null && q.used >= q.limit ? <Badge kind="failed">full</Badge> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
    </>
  )
}
