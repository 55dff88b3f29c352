import { sql, type Kysely } from 'kysely'
import { describe, expect, it } from 'vitest'
import type { StoreKind } from '../../test/support/databases.js'
import { chargeCredits, refundCredits } from '../credits/ledger.js'
import { DEFAULT_LOW_CREDIT_THRESHOLD, type ChargeOutcome } from './credits-repo.js'
import { openStore, type StoreOptions } from './open-store.js'
import type { AccountRow, Database } from './schema.js'
import { Repos, type Store } from './store.js'

/**
 * The storage contract of the credits ledger, part of `runStoreTests` (`store.case.ts`), so it
 * runs on every engine.
 */
export function runCreditsRepoTests(
  kind: StoreKind,
  current: () => { store: Store; options: StoreOptions },
): void {
  async function seed(store: Store, granted = 0): Promise<AccountRow> {
    const acme = await store.accounts.create('acme', 'org')
    if (granted > 0) await store.credits.grant(acme.id, granted, { reason: 'seed' })
    return acme
  }

  const charged = (outcomes: readonly ChargeOutcome[]) =>
    outcomes.filter((o) => o.status === 'charged').length

  it('the balance is the sum of grants and refunds less charges; entries keep what was given', async () => {
    const { store } = current()
    const acme = await seed(store)
    const other = await store.accounts.create('other', 'org')
    expect(await store.credits.balance(acme.id)).toBe(0)

    const grant = await store.credits.grant(acme.id, 100, { reason: 'welcome' })
    await store.credits.grant(other.id, 7)
    const charge = await chargeCredits(store, acme.id, 30, 'req_1', 'create library')
    expect(charge).toEqual({ status: 'charged', entry: expect.any(Object), balance: 70 })
    if (charge.status !== 'charged') throw new Error('unreachable')
    const refund = await refundCredits(store, charge.entry.id, 'req_2', 'library failed')
    expect(refund).toMatchObject({ status: 'refunded', balance: 100 })

    expect(await store.credits.balance(acme.id)).toBe(100)
    expect(await store.credits.balance(other.id)).toBe(7)
    expect(await store.credits.entries(acme.id)).toEqual([
      {
        id: grant.id,
        org_id: acme.id,
        seq: 1,
        kind: 'grant',
        amount: 100,
        reason: 'welcome',
        request_id: null,
        refund_of: null,
        created_at: grant.created_at,
      },
      {
        id: charge.entry.id,
        org_id: acme.id,
        seq: 2,
        kind: 'charge',
        amount: 30,
        reason: 'create library',
        request_id: 'req_1',
        refund_of: null,
        created_at: charge.entry.created_at,
      },
      {
        id: refund.entry.id,
        org_id: acme.id,
        seq: 3,
        kind: 'refund',
        amount: 30,
        reason: 'library failed',
        request_id: 'req_2',
        refund_of: charge.entry.id,
        created_at: refund.entry.created_at,
      },
    ])
    expect(charge.entry.id).toMatch(/^cre_[0-9a-f]{24}$/)
  })

  it('a charge over the balance is refused and leaves the ledger as it was', async () => {
    const { store } = current()
    const acme = await seed(store, 50)
    const before = await store.credits.entries(acme.id)

    expect(await chargeCredits(store, acme.id, 51, 'req_big')).toEqual({
      status: 'insufficient',
      balance: 50,
      needed: 51,
    })
    expect(await store.credits.entries(acme.id)).toEqual(before)
    expect(await store.credits.balance(acme.id)).toBe(50)
    // Exactly the balance is enough, and leaves nothing.
    expect(await chargeCredits(store, acme.id, 50, 'req_all')).toMatchObject({
      status: 'charged',
      balance: 0,
    })
    expect(await chargeCredits(store, acme.id, 1, 'req_more')).toEqual({
      status: 'insufficient',
      balance: 0,
      needed: 1,
    })
  })

  it('a charge in a transaction rolls back with the work it pays for', async () => {
    const { store } = current()
    const acme = await seed(store, 20)
    const boom = new Error('the paid-for work failed')
    await expect(
      store.transaction(async (tx) => {
        expect(await chargeCredits(tx, acme.id, 15, 'req_tx')).toMatchObject({ balance: 5 })
        expect(await tx.credits.balance(acme.id)).toBe(5)
        throw boom
      }),
    ).rejects.toBe(boom)
    expect(await store.credits.balance(acme.id)).toBe(20)
    expect(await store.credits.entries(acme.id)).toHaveLength(1)
  })

  it('a charge is refunded at most once; refunding what is not a charge fails', async () => {
    const { store } = current()
    const acme = await seed(store, 10)
    const charge = await chargeCredits(store, acme.id, 4, 'req_c')
    if (charge.status !== 'charged') throw new Error('expected a charge')
    const first = await refundCredits(store, charge.entry.id, 'req_r1')
    const second = await refundCredits(store, charge.entry.id, 'req_r2')
    expect(second).toEqual({ status: 'already-refunded', entry: first.entry, balance: 10 })
    expect(await store.credits.balance(acme.id)).toBe(10)
    const [grant] = await store.credits.entries(acme.id)
    await expect(refundCredits(store, grant!.id, null)).rejects.toThrow(/no credit charge/)
    await expect(refundCredits(store, 'cre_nope', null)).rejects.toThrow(/no credit charge/)
  })

  it('amounts are whole positive numbers, in the repository and in the table itself', async () => {
    const { store } = current()
    const acme = await seed(store, 10)
    for (const amount of [0, -1, 1.5, Number.NaN, 2_000_000_000]) {
      await expect(store.credits.grant(acme.id, amount)).rejects.toThrow(RangeError)
      await expect(chargeCredits(store, acme.id, amount, null)).rejects.toThrow(RangeError)
    }
    for (const [kind, amount] of [
      ['grant', 0],
      ['charge', -5],
      ['gift', 5],
    ] as const) {
      const insert = sql`insert into credit_entries (id, org_id, kind, amount, created_at)
        values (${`cre_${kind}${amount}`}, ${acme.id}, ${kind}, ${amount}, ${new Date().toISOString()})`
      await expect(insert.execute(store.kysely)).rejects.toThrow()
    }
    expect(await store.credits.balance(acme.id)).toBe(10)
  })

  it('charging an account that does not exist fails and writes nothing', async () => {
    const { store } = current()
    await expect(chargeCredits(store, 'org_missing', 1, null)).rejects.toThrow(/no account/)
    expect(await store.credits.entries('org_missing')).toEqual([])
  })

  it('the low-credit threshold defaults, can be set per organisation, and not below 0', async () => {
    const { store } = current()
    const acme = await seed(store)
    const other = await store.accounts.create('other', 'org')
    expect(DEFAULT_LOW_CREDIT_THRESHOLD).toBe(10)
    expect(await store.credits.lowCreditThreshold(acme.id)).toBe(10)
    await store.credits.setLowCreditThreshold(acme.id, 250)
    await store.credits.setLowCreditThreshold(acme.id, 0)
    await store.credits.setLowCreditThreshold(other.id, 3)
    expect(await store.credits.lowCreditThreshold(acme.id)).toBe(0)
    expect(await store.credits.lowCreditThreshold(other.id)).toBe(3)
    await expect(store.credits.setLowCreditThreshold(acme.id, -1)).rejects.toThrow(RangeError)
    expect(await store.credits.lowCreditThreshold(acme.id)).toBe(0)
  })

  describe('concurrent charges', () => {
    it('charges that together exceed the balance: only those it covers land', async () => {
      const { store, options } = current()
      const acme = await seed(store, 100)
      // PostgreSQL: half of them through a second pool, as from a second hub. SQLite: one
      // connection per process (a second one here would wait on this thread's own lock).
      const second = store.capabilities.skipLocked ? await openStore(options) : store
      try {
        for (let round = 0; round < 3; round++) {
          const topUp = 100 - (await store.credits.balance(acme.id))
          if (topUp > 0) await store.credits.grant(acme.id, topUp)
          const outcomes = await Promise.all(
            Array.from({ length: 6 }, (_, i) =>
              (i % 2 ? second : store).transaction((tx) =>
                chargeCredits(tx, acme.id, 30, `req_${round}_${i}`),
              ),
            ),
          )
          expect(charged(outcomes)).toBe(3)
          expect(await store.credits.balance(acme.id)).toBe(10)
        }
        expect(await store.credits.balance(acme.id)).toBeGreaterThanOrEqual(0)
      } finally {
        if (second !== store) await second.close()
      }
    })

    it('two charges of 60 on a balance of 100: exactly one succeeds', async () => {
      const { store } = current()
      const acme = await seed(store, 100)
      const outcomes = await Promise.all([
        chargeCredits(store, acme.id, 60, 'req_a'),
        chargeCredits(store, acme.id, 60, 'req_b'),
      ])
      expect(charged(outcomes)).toBe(1)
      expect(outcomes.map((o) => o.status).sort()).toEqual(['charged', 'insufficient'])
      expect(await store.credits.balance(acme.id)).toBe(40)
    })

    it.runIf(kind === 'postgres')(
      'a charge waits for an open charge of the same organisation, then sees it',
      async () => {
        const { store, options } = current()
        const acme = await seed(store, 100)
        const second = await openStore(options)
        try {
          let later: Promise<ChargeOutcome> | undefined
          let settled = false
          // What `store.transaction` does, keeping the transaction's connection at hand.
          await store.kysely.transaction().execute(async (trx) => {
            const tx = new Repos(trx, store.capabilities)
            expect(await chargeCredits(tx, acme.id, 60, 'req_first')).toMatchObject({
              status: 'charged',
            })
            const pid = await backendPid(trx)
            later = second.transaction((tx2) => chargeCredits(tx2, acme.id, 60, 'req_second'))
            later.then(
              () => (settled = true),
              () => (settled = true),
            )
            // Until the second charge has finished (without the lock it does not wait, and
            // cannot see this uncommitted charge) or waits on this transaction.
            await until(async () => settled || (await blockedBy(store, pid)))
          })
          expect(await later).toEqual({ status: 'insufficient', balance: 40, needed: 60 })
          expect(await store.credits.balance(acme.id)).toBe(40)
        } finally {
          await second.close()
        }
      },
    )
  })
}

async function backendPid(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)
  return rows[0]!.pid
}

async function blockedBy(store: Store, pid: number): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from pg_stat_activity where ${pid} = any(pg_blocking_pids(pid))
  `.execute(store.kysely)
  return (rows[0]?.n ?? 0) > 0
}

async function until(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('the second charge neither finished nor waited')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
