import type { Api, Delivery } from '@svc/hub-api'
import { ActionButton, Badge, Time } from '../../../components.js'
import type { WebContext } from '../../../env.js'
import { localPath } from '../shared.js'
import { enc, hookPath } from './shared.js'

export const STATES = ['pending', 'succeeded', 'failed'] as const

export function DeliveryCard(props: {
  c: WebContext
  api: Api
  hookId: string
  delivery: Delivery
  open: boolean
}) {
  const { delivery } = props
  const data = (delivery.event.data ?? {}) as {
    changesUrl?: string
    revision?: { url?: string; version?: string | null }
    counts?: { breaking: number; warning: number; info: number }
  }
  return (
    <div class="card" data-testid="delivery" data-state={delivery.state}>
      <div class="head">
        <div>
          <div class="row">
            <StateBadge state={delivery.state} />
            <strong class="mono">{delivery.eventType}</strong>
          </div>
          <div class="muted">
            {delivery.attemptCount} attempt{delivery.attemptCount === 1 ? '' : 's'} · created{' '}
            <Time at={delivery.createdAt} />
            {delivery.nextAttemptAt ? (
              <>
                {' '}
                · next attempt <Time at={delivery.nextAttemptAt} />
              </>
            ) : null}
            {delivery.completedAt ? (
              <>
                {' '}
                · {delivery.state} <Time at={delivery.completedAt} />
              </>
            ) : null}
          </div>
          <div class="muted mono">
            {delivery.id} · event {delivery.eventId}
          </div>
          {data.changesUrl ? (
            <div>
              {data.counts
                ? `${data.counts.breaking} breaking, ${data.counts.warning} warning, ${data.counts.info} info · `
                : ''}
              <a href={localPath(data.changesUrl)}>the changes</a>
            </div>
          ) : null}
        </div>
        {delivery.state !== 'pending' ? (
          <ActionButton
            action={`${hookPath(props.api, props.hookId)}/deliveries/${enc(delivery.id)}/retry`}
            csrfToken={props.c.get('csrfToken')}
            label="Retry"
          />
        ) : null}
      </div>
      {delivery.attempts.length > 0 ? (
        <details {...(props.open ? { open: true } : {})}>
          <summary>Attempts</summary>
          <table>
            <thead>
              <tr>
                <th>#</th>
                <th>Started</th>
                <th>Outcome</th>
                <th>Status</th>
                <th>Duration</th>
                <th>Response or error</th>
              </tr>
            </thead>
            <tbody>
              {delivery.attempts.map((attempt) => (
                <tr>
                  <td>
                    {attempt.number}
                    <div class="muted">{attempt.trigger}</div>
                  </td>
                  <td>
                    <Instant at={attempt.startedAt} />
                  </td>
                  <td>
                    <StateBadge state={attempt.outcome} />
                  </td>
                  <td>{attempt.status ?? <span class="muted">—</span>}</td>
                  <td>{attempt.durationMs} ms</td>
                  <td>
                    {attempt.error ? <div class="field-error mono">{attempt.error}</div> : null}
                    {attempt.responseExcerpt ? <pre>{attempt.responseExcerpt}</pre> : null}
                    {!attempt.error && !attempt.responseExcerpt ? (
                      <span class="muted">—</span>
                    ) : null}
                    {attempt.redirects.length > 0 ? (
                      <div class="muted">redirected to {attempt.redirects.join(' → ')}</div>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      ) : null}
    </div>
  )
}

function StateBadge({ state }: { state: string }) {
  return <Badge kind={state}>{state}</Badge>
}

/** An attempt's start, to the second: attempts of one delivery are often seconds apart. */
function Instant({ at }: { at: string }) {
  return (
    <time datetime={at} title={at}>
      {at.slice(0, 19).replace('T', ' ')} UTC
    </time>
  )
}
