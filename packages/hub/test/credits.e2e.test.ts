import { readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeKinds } from './support/databases.js'
import { startHub, type CommandRun, type HubProcess } from './support/hub-process.js'
import { eventually } from './support/poll.js'
import { expectStoreUnchanged } from './support/store-snapshot.js'

const ENTRY_ID = /^cre_[0-9a-f]{24}$/

function jsonOf(run: CommandRun): any {
  expect(run.code, run.stderr).toBe(0)
  expect(run.stderr).toBe('')
  expect(run.stdout.trimEnd().split('\n')).toHaveLength(1)
  return JSON.parse(run.stdout)
}

function failure(run: CommandRun): string {
  expect(run.code).toBe(1)
  expect(run.stdout).toBe('')
  expect(run.stderr.startsWith('error: ')).toBe(true)
  return run.stderr.trimEnd().slice('error: '.length)
}

for (const kind of await storeKinds()) {
  describe(`credits: svc-hub admin grant-credits, charge-credits, set-credit-threshold (${kind})`, () => {
    let hub: HubProcess
    const admin = (...args: string[]) => hub.admin(args)

    async function ledger(org: string) {
      const store = await hub.openStore()
      try {
        const account = (await store.accounts.find(org))!
        return {
          balance: await store.credits.balance(account.id),
          entries: await store.credits.entries(account.id),
        }
      } finally {
        await store.close()
      }
    }

    beforeAll(async () => {
      hub = await startHub(kind)
      jsonOf(await admin('create-user', 'alice', '--json'))
      for (const org of ['acme', 'race']) {
        jsonOf(await admin('create-org', org, '--owner', 'alice', '--json'))
      }
    })
    afterAll(() => hub?.dispose())

    it('grant-credits adds a grant entry; the balance is the sum of the entries', async () => {
      const text = await admin('grant-credits', 'acme', '40')
      expect(text.code, text.stderr).toBe(0)
      expect(text.stdout).toMatch(/^granted 40 credits to acme \(cre_[0-9a-f]{24}\); balance 40\n$/)
      const json = jsonOf(
        await admin('grant-credits', 'acme', '2', '--reason', 'support ticket 12', '--json'),
      )
      expect(json).toEqual({
        entryId: expect.stringMatching(ENTRY_ID),
        granted: 2,
        org: 'acme',
        balance: 42,
        lowCreditThreshold: 10,
      })
      const { balance, entries } = await ledger('acme')
      expect(balance).toBe(42)
      expect(entries.map((e) => [e.seq, e.kind, e.amount, e.reason, e.request_id])).toEqual([
        [1, 'grant', 40, 'operator grant', null],
        [2, 'grant', 2, 'support ticket 12', null],
      ])
      expect(entries[1]!.id).toBe(json.entryId)
    })

    it('charge-credits takes credits, and refuses more than the balance without writing', async () => {
      const charged = jsonOf(await admin('charge-credits', 'acme', '12', '--json'))
      expect(charged).toMatchObject({ charged: 12, org: 'acme', balance: 30 })
      const refused = await expectStoreUnchanged(hub, () => admin('charge-credits', 'acme', '31'))
      expect(failure(refused)).toBe('acme has 30 credits, fewer than 31; nothing was charged')
      expect((await ledger('acme')).balance).toBe(30)
    })

    it('set-credit-threshold sets the low-credit threshold (default 10)', async () => {
      const text = await admin('set-credit-threshold', 'acme', '100')
      expect(text.stdout).toBe('low-credit threshold of acme is 100; balance 30\n')
      expect(jsonOf(await admin('set-credit-threshold', 'acme', '0', '--json'))).toEqual({
        org: 'acme',
        balance: 30,
        lowCreditThreshold: 0,
      })
    })

    it('refuses bad amounts, reasons and accounts with one error line, writing nothing', async () => {
      await expectStoreUnchanged(hub, async () => {
        // Amounts are refused before the store is read: the same on every store, so once.
        const amounts = kind === 'sqlite' ? ['0', '-1', '1.5', 'ten', '1e3', '1000000001'] : []
        for (const amount of amounts) {
          expect(failure(await admin('grant-credits', 'acme', amount))).toBe(
            `the amount must be a whole number from 1 to 1,000,000,000, got '${amount}'`,
          )
          expect(failure(await admin('charge-credits', 'acme', amount))).toMatch(/^the amount/)
        }
        expect(failure(await admin('set-credit-threshold', 'acme', '-5'))).toBe(
          "the threshold must be a whole number from 0 to 1,000,000,000, got '-5'",
        )
        expect(
          failure(await admin('grant-credits', 'acme', '5', '--reason', 'x'.repeat(201))),
        ).toBe('--reason must be 1 to 200 characters')
        expect(failure(await admin('grant-credits', 'nobody', '5'))).toBe(
          "there is no organisation 'nobody'",
        )
        expect(failure(await admin('set-credit-threshold', 'alice', '5'))).toBe(
          "'alice' is a user, not an organisation",
        )
      })
    })

    it('concurrent charges from separate processes never spend the same credits twice', async () => {
      jsonOf(await admin('grant-credits', 'race', '3', '--json'))
      // Six processes at once, each charging 1 of the 3 credits.
      const runs = await Promise.all(
        Array.from({ length: 6 }, () =>
          hub.adminProcess(['charge-credits', 'race', '1', '--json']),
        ),
      )
      const succeeded = runs.filter((run) => run.code === 0)
      const refused = runs.filter((run) => run.code !== 0)
      expect(succeeded).toHaveLength(3)
      for (const run of refused) {
        expect(failure(run)).toMatch(/^race has [0-2] credits, fewer than 1; nothing was charged$/)
      }
      const { balance, entries } = await ledger('race')
      expect(balance).toBe(0)
      expect(entries.map((e) => [e.seq, e.kind])).toEqual([
        [1, 'grant'],
        [2, 'charge'],
        [3, 'charge'],
        [4, 'charge'],
      ])
    })

    // Linux only: whether the other process waits on the lock is read from /proc.
    it.runIf(kind === 'sqlite' && process.platform === 'linux')(
      'a charge in another process waits for an open charge, then sees its result',
      async () => {
        jsonOf(await admin('create-org', 'wait', '--owner', 'alice', '--json'))
        jsonOf(await admin('grant-credits', 'wait', '5', '--json'))
        const store = await hub.openStore()
        let other: Promise<CommandRun> | undefined
        try {
          const org = (await store.accounts.find('wait'))!
          await store.transaction(async (tx) => {
            expect(await tx.credits.charge(org.id, 5)).toMatchObject({ status: 'charged' })
            let pid: number | undefined
            other = hub.adminProcess(['charge-credits', 'wait', '5'], (child) => (pid = child.pid))
            // The process reaches the ledger while this transaction holds it, and waits for it:
            // with the store open, its event loop idles between tries of the lock (the driver
            // waits without blocking it). Without the lock, it would read the balance of 5 and
            // then fail to write (SQLITE_BUSY_SNAPSHOT).
            await eventually(
              async () => ((await waitingOnStore(pid, hub.dataDir)) ? true : undefined),
              'the other charge to wait for the lock',
            )
          })
        } finally {
          await store.close()
        }
        expect(failure(await other!)).toBe('wait has 0 credits, fewer than 5; nothing was charged')
        expect((await ledger('wait')).balance).toBe(0)
      },
    )
  })
}

/**
 * Whether process `pid` has the store's file open and its main thread idles in its event loop,
 * three times in a row: a charge that found no lock would have answered and exited by then.
 */
async function waitingOnStore(pid: number | undefined, dataDir: string): Promise<boolean> {
  if (pid === undefined) return false
  for (let sample = 0; sample < 3; sample++) {
    if (sample > 0) await new Promise((resolve) => setTimeout(resolve, 100))
    try {
      const files = readdirSync(`/proc/${pid}/fd`).map((fd) => {
        try {
          return readlinkSync(`/proc/${pid}/fd/${fd}`)
        } catch {
          return ''
        }
      })
      if (!files.includes(join(dataDir, 'hub.db'))) return false
      if (readFileSync(`/proc/${pid}/wchan`, 'utf8') !== 'do_epoll_wait') return false
    } catch {
      return false
    }
  }
  return true
}
