import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAccount, createOrg, createToken } from '../src/accounts/admin.js'
import { SCOPES } from '../src/auth/scopes.js'
import type { Store } from '../src/store/store.js'
import { storeKinds } from './support/databases.js'
import { afterTokenChange } from './support/token-notice.js'
import { startHub, type CommandRun, type HubProcess } from './support/hub-process.js'
import { call } from './support/http.js'
import { snapshotStore } from './support/store-snapshot.js'

const PAT = /^svc_pat_[A-Za-z0-9_-]{43}$/
const API_KEY = /^svc_key_[A-Za-z0-9_-]{43}$/
const id = (prefix: string) => expect.stringMatching(new RegExp(`^${prefix}_[0-9a-f]{24}$`))
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')
const DAY_MS = 86_400_000
const ALL_SCOPES = SCOPES.join(', ')
const EXPIRES_ERROR = '--expires must be a whole number of days from 1 to 3650'

/** A successful command's one JSON object: exit 0, nothing on stderr, one line on stdout. */
function jsonOf(run: CommandRun): any {
  expect(run.code, run.stderr).toBe(0)
  expect(run.stderr).toBe('')
  expect(run.stdout.endsWith('\n')).toBe(true)
  expect(run.stdout.trimEnd().split('\n')).toHaveLength(1)
  const value: unknown = JSON.parse(run.stdout)
  expect(value).toBeTypeOf('object')
  expect(Array.isArray(value)).toBe(false)
  return value
}

/** A successful command's text lines: exit 0, nothing on stderr. */
function linesOf(run: CommandRun): string[] {
  expect(run.code, run.stderr).toBe(0)
  expect(run.stderr).toBe('')
  expect(run.stdout.endsWith('\n')).toBe(true)
  return run.stdout.trimEnd().split('\n')
}

for (const kind of await storeKinds()) {
  describe(`svc-hub admin (${kind})`, () => {
    let hub: HubProcess
    const admin = (...args: string[]) => hub.admin(args)
    const whoAmI = (token: string) => call(`${hub.url}/v1/user`, { token })

    beforeAll(async () => {
      hub = await startHub(kind)
    })
    afterAll(() => hub?.dispose())

    // The tests below run the commands in this process (runAdmin); these run the real binary:
    // its exit codes, and what it writes on stdout and stderr.
    it('the svc-hub binary: an answer on stdout (exit 0), a refusal or misuse on stderr (1, 2), help', async () => {
      const made = jsonOf(await hub.adminProcess(['create-user', 'binny', '--json']))
      expect(made).toEqual({ id: id('usr'), handle: 'binny', kind: 'user' })
      const lines = linesOf(await hub.adminProcess(['create-org', 'binco', '--owner', 'binny']))
      expect(lines[0]).toMatch(/^created organisation binco \(org_[0-9a-f]{24}\) owned by binny$/)

      const taken = await hub.adminProcess(['create-user', 'binny'])
      expect(taken).toEqual({ code: 1, stdout: '', stderr: expect.stringMatching(/^error: .+\n$/) })
      const misuse = await hub.adminProcess(['create-user', 'newbie', '--bogus'])
      expect(misuse.code).toBe(2)
      expect(misuse.stdout).toBe('')
      expect(misuse.stderr.split('\n')[0]).toBe("error: unknown option '--bogus'")
      const help = await hub.adminProcess(['create-token', '--help'])
      expect(help.code).toBe(0)
      expect(help.stdout).toContain('--scopes <scopes>')
      expect(help.stderr).toBe('')
    })

    describe('commands, as text and as --json', () => {
      it('create-user', async () => {
        const [text] = linesOf(await admin('create-user', 'alice'))
        expect(text).toMatch(/^created user alice \(usr_[0-9a-f]{24}\)$/)
        const json = jsonOf(await admin('create-user', 'bob', '--json'))
        expect(json).toEqual({ id: id('usr'), handle: 'bob', kind: 'user' })

        const store = await hub.openStore()
        try {
          const bob = await store.accounts.find('bob')
          expect(bob).toMatchObject({ id: json.id, handle: 'bob', kind: 'user' })
          expect(await store.accounts.find('alice')).toMatchObject({
            id: /\((usr_[0-9a-f]{24})\)/.exec(text!)![1],
            kind: 'user',
          })
        } finally {
          await store.close()
        }
      })

      it('create-org --owner', async () => {
        const [text] = linesOf(await admin('create-org', 'acme', '--owner', 'alice'))
        expect(text).toMatch(/^created organisation acme \(org_[0-9a-f]{24}\) owned by alice$/)
        const json = jsonOf(await admin('create-org', 'globex', '--owner', 'bob', '--json'))
        expect(json).toEqual({ id: id('org'), handle: 'globex', kind: 'org', owner: 'bob' })

        const token = jsonOf(await admin('create-token', 'alice', '--scopes', 'read', '--json'))
        const me = await whoAmI(token.token)
        expect(me.status).toBe(200)
        expect(me.body.organizations).toEqual([{ handle: 'acme', role: 'owner' }])
      })

      it('add-member --role, which also changes a role', async () => {
        for (const handle of ['carol', 'dave']) linesOf(await admin('create-user', handle))
        expect(linesOf(await admin('add-member', 'acme', 'carol', '--role', 'writer'))).toEqual([
          'carol is now writer of acme',
        ])
        expect(
          jsonOf(await admin('add-member', 'acme', 'dave', '--role', 'reader', '--json')),
        ).toEqual({ org: 'acme', user: 'dave', role: 'reader' })
        expect(
          jsonOf(await admin('add-member', 'globex', 'dave', '--role', 'owner', '--json')),
        ).toEqual({ org: 'globex', user: 'dave', role: 'owner' })
        expect(linesOf(await admin('add-member', 'acme', 'dave', '--role', 'writer'))).toEqual([
          'dave is now writer of acme',
        ])

        const token = jsonOf(await admin('create-token', 'dave', '--scopes', 'read', '--json'))
        const me = await whoAmI(token.token)
        expect(me.status).toBe(200)
        expect(me.body.organizations).toEqual([
          { handle: 'acme', role: 'writer' },
          { handle: 'globex', role: 'owner' },
        ])
      })

      it("add-member refuses to demote an organisation's only owner", async () => {
        linesOf(await admin('create-user', 'olga'))
        linesOf(await admin('create-org', 'solo', '--owner', 'olga'))
        const refused = await admin('add-member', 'solo', 'olga', '--role', 'writer')
        expect(refused.code).toBe(1)
        expect(refused.stderr).toBe(
          'error: olga is the only owner of solo; make another member owner first\n',
        )
        linesOf(await admin('create-user', 'otto'))
        linesOf(await admin('add-member', 'solo', 'otto', '--role', 'owner'))
        expect(linesOf(await admin('add-member', 'solo', 'olga', '--role', 'reader'))).toEqual([
          'olga is now reader of solo',
        ])
      })

      it('create-token --scopes [--expires]; the printed tokens work against the hub', async () => {
        const lines = linesOf(
          await admin('create-token', 'alice', '--scopes', 'write:releases,read'),
        )
        expect(lines).toHaveLength(2)
        const [textToken, note] = lines as [string, string]
        expect(textToken).toMatch(PAT)
        const textId =
          /^\(token (tok_[0-9a-f]{24}) for alice; scopes write:releases,read; never expires\)$/.exec(
            note,
          )?.[1]
        expect(textId, note).toBeDefined()
        const text = await whoAmI(textToken)
        expect(text.status).toBe(200)
        expect(text.body).toMatchObject({
          handle: 'alice',
          token: { id: textId, scopes: ['write:releases', 'read'], expiresAt: null },
        })

        const before = Date.now()
        const json = jsonOf(
          await admin(
            'create-token',
            'bob',
            '--scopes',
            'read read write:apis',
            '--expires',
            '30',
            '--json',
          ),
        )
        const after = Date.now()
        expect(json).toEqual({
          id: id('tok'),
          user: 'bob',
          token: expect.stringMatching(PAT),
          scopes: ['read', 'write:apis'],
          expiresAt: expect.any(String),
        })
        const expiresAt = Date.parse(json.expiresAt)
        expect(new Date(expiresAt).toISOString()).toBe(json.expiresAt)
        expect(expiresAt).toBeGreaterThanOrEqual(before + 30 * DAY_MS)
        expect(expiresAt).toBeLessThanOrEqual(after + 30 * DAY_MS)
        const me = await whoAmI(json.token)
        expect(me.status).toBe(200)
        expect(me.body).toMatchObject({
          handle: 'bob',
          token: { id: json.id, scopes: ['read', 'write:apis'], expiresAt: json.expiresAt },
        })

        const [expiringToken, expiringNote] = linesOf(
          await admin('create-token', 'carol', '--scopes', SCOPES.join(','), '--expires', '3650'),
        ) as [string, string]
        expect(expiringNote).toMatch(
          new RegExp(
            `^\\(token tok_[0-9a-f]{24} for carol; scopes ${SCOPES.join(',')}; expires \\d{4}-`,
          ),
        )
        expect((await whoAmI(expiringToken)).body.token.scopes).toEqual([...SCOPES])

        // Only a hash is stored.
        const store = await hub.openStore()
        try {
          const row = await store.accounts.findToken(json.id)
          expect(row).toMatchObject({ token_hash: sha256(json.token), scopes: 'read write:apis' })
          expect(JSON.stringify(row)).not.toContain(json.token)
        } finally {
          await store.close()
        }
      })

      it('revoke-token; revoking again reports the first revocation', async () => {
        const first = jsonOf(await admin('create-token', 'alice', '--scopes', 'read', '--json'))
        const second = jsonOf(await admin('create-token', 'alice', '--scopes', 'read', '--json'))
        expect((await whoAmI(first.token)).status).toBe(200)

        expect(linesOf(await admin('revoke-token', first.id))).toEqual([
          `revoked token ${first.id}`,
        ])
        await afterTokenChange(kind, () => whoAmI(first.token))
        const revoked = await whoAmI(first.token)
        expect(revoked.status).toBe(401)
        expect(revoked.body.details).toEqual({ reason: 'revoked' })

        const json = jsonOf(await admin('revoke-token', second.id, '--json'))
        expect(json).toEqual({ id: second.id, revokedAt: expect.any(String) })
        expect(new Date(json.revokedAt).toISOString()).toBe(json.revokedAt)
        await afterTokenChange(kind, () => whoAmI(second.token))
        expect((await whoAmI(second.token)).body.details).toEqual({ reason: 'revoked' })

        const again = jsonOf(await admin('revoke-token', second.id, '--json'))
        expect(again).toEqual(json)
        // The other tokens of the user still work.
        const other = jsonOf(await admin('create-token', 'alice', '--scopes', 'read', '--json'))
        expect((await whoAmI(other.token)).status).toBe(200)
      })

      it('create-api-key (stored as a hash; no endpoint takes API keys yet)', async () => {
        const [textKey, note] = linesOf(await admin('create-api-key', 'acme')) as [string, string]
        expect(textKey).toMatch(API_KEY)
        const textId = /^\(API key (key_[0-9a-f]{24}) for acme\)$/.exec(note)?.[1]
        expect(textId, note).toBeDefined()
        const json = jsonOf(await admin('create-api-key', 'globex', '--json'))
        expect(json).toEqual({ id: id('key'), org: 'globex', key: expect.stringMatching(API_KEY) })

        const store = await hub.openStore()
        try {
          const rows = await store.kysely
            .selectFrom('api_keys')
            .innerJoin('accounts', 'accounts.id', 'api_keys.org_id')
            .select(['api_keys.id', 'accounts.handle', 'api_keys.key_hash', 'api_keys.created_by'])
            .where('api_keys.id', 'in', [textId!, json.id])
            .orderBy('accounts.handle')
            .execute()
          expect(rows).toEqual([
            { id: textId, handle: 'acme', key_hash: sha256(textKey), created_by: null },
            { id: json.id, handle: 'globex', key_hash: sha256(json.key), created_by: null },
          ])
        } finally {
          await store.close()
        }
        const reply = await call(`${hub.url}/v1/user`, { token: json.key })
        expect(reply.status).toBe(401)
        expect(reply.body.details).toEqual({ reason: 'malformed' })
      })
    })

    describe('errors change nothing', () => {
      // Refusals decided before the store is read (shapes, names, options) behave the same on
      // every store: they run once, on SQLite. Those that look things up run on both.
      const validation = (name: string, test: () => Promise<void>) => {
        if (kind === 'sqlite') it(name, test)
      }

      let store: Store
      beforeAll(async () => {
        store = await hub.openStore()
        await createAccount(store, 'erin', 'user')
        await createOrg(store, 'errco', 'erin')
        await createToken(store, 'erin', 'read')
      })
      afterAll(() => store?.close())

      /** Runs each command as text and with --json: exit `code`, the message on stderr, no writes. */
      const expectRefused = async (
        code: 1 | 2,
        cases: readonly (readonly [args: string[], message: string])[],
      ) => {
        const before = await snapshotStore(store)
        const runs = cases.flatMap(([args, message]) => [
          { args, message },
          // `--json` right after the command: at the end it could be taken as a missing value.
          { args: [args[0]!, '--json', ...args.slice(1)], message },
        ])
        // One after another: in one process, a command waiting on SQLite's lock would block the
        // event loop of the one holding it.
        const results: CommandRun[] = []
        for (const run of runs) results.push(await hub.admin(run.args))
        runs.forEach((run, index) => {
          const result = results[index]!
          const what = `svc-hub admin ${run.args.join(' ')}`
          expect(result.code, `${what}\n${result.stderr}`).toBe(code)
          expect(result.stdout, what).toBe('')
          if (code === 1) expect(result.stderr, what).toBe(`error: ${run.message}\n`)
          else expect(result.stderr.split('\n')[0], what).toBe(`error: ${run.message}`)
        })
        expect(await snapshotStore(store)).toEqual(before)
      }

      it('a taken handle: users and organisations share one namespace', async () => {
        await expectRefused(1, [
          [['create-user', 'erin'], "the handle 'erin' is taken by a user or an organisation"],
          [['create-user', 'errco'], "the handle 'errco' is taken by a user or an organisation"],
          [['create-user', 'admin'], "the handle 'admin' is taken by a user or an organisation"],
          [
            ['create-org', 'erin', '--owner', 'erin'],
            "the handle 'erin' is taken by a user or an organisation",
          ],
          [
            ['create-org', 'errco', '--owner', 'erin'],
            "the handle 'errco' is taken by a user or an organisation",
          ],
        ])
      })

      validation('an invalid handle', async () => {
        const invalid = (handle: string) =>
          `'${handle}' is not a valid handle: use 1–39 lowercase letters, digits or inner hyphens`
        const long = 'a'.repeat(40)
        await expectRefused(1, [
          [['create-user', 'Bad_Name'], invalid('Bad_Name')],
          [['create-user', long], invalid(long)],
          [['create-user', 'trailing-'], invalid('trailing-')],
          [['create-user', 'dot.ted'], invalid('dot.ted')],
          [['create-org', 'Bad_Name', '--owner', 'erin'], invalid('Bad_Name')],
          [['create-org', long, '--owner', 'erin'], invalid(long)],
        ])
      })

      validation('a handle that names a page of the hub', async () => {
        const reserved = (handle: string) =>
          `the handle '${handle}' is reserved: it names a page of the hub`
        await expectRefused(1, [
          [['create-user', 'settings'], reserved('settings')],
          [['create-user', 'v1'], reserved('v1')],
          [['create-org', 'apis', '--owner', 'erin'], reserved('apis')],
        ])
        // 39 characters is the longest handle.
        expect(linesOf(await admin('create-user', 'b'.repeat(39)))[0]).toMatch(
          /^created user b{39} /,
        )
      })

      it('an unknown user or organisation, or one of the other kind: create-org, add-member', async () => {
        await expectRefused(1, [
          [['create-org', 'newco', '--owner', 'nobody'], "there is no user 'nobody'"],
          [['create-org', 'newco', '--owner', 'errco'], "'errco' is an organisation, not a user"],
          [['add-member', 'nope', 'erin', '--role', 'reader'], "there is no organisation 'nope'"],
          [['add-member', 'errco', 'nobody', '--role', 'reader'], "there is no user 'nobody'"],
          [
            ['add-member', 'erin', 'erin', '--role', 'reader'],
            "'erin' is a user, not an organisation",
          ],
          [
            ['add-member', 'errco', 'errco', '--role', 'reader'],
            "'errco' is an organisation, not a user",
          ],
        ])
      })

      it('an unknown user or organisation, or one of the other kind: create-token, create-api-key', async () => {
        await expectRefused(1, [
          [['create-token', 'nobody', '--scopes', 'read'], "there is no user 'nobody'"],
          [['create-token', 'errco', '--scopes', 'read'], "'errco' is an organisation, not a user"],
          [['create-api-key', 'nope'], "there is no organisation 'nope'"],
          [['create-api-key', 'erin'], "'erin' is a user, not an organisation"],
        ])
      })

      validation('an unknown role or scope', async () => {
        await expectRefused(1, [
          [
            ['add-member', 'errco', 'erin', '--role', 'boss'],
            "'boss' is not a role; use owner, writer or reader",
          ],
          [
            ['add-member', 'errco', 'erin', '--role', 'Owner'],
            "'Owner' is not a role; use owner, writer or reader",
          ],
          [
            ['create-token', 'erin', '--scopes', 'read,write:stuff'],
            `unknown scope 'write:stuff'; scopes are ${ALL_SCOPES}`,
          ],
          [
            ['create-token', 'erin', '--scopes', 'admin'],
            `unknown scope 'admin'; scopes are ${ALL_SCOPES}`,
          ],
          [['create-token', 'erin', '--scopes', ''], `give at least one scope of ${ALL_SCOPES}`],
          [['create-token', 'erin', '--scopes', ' , '], `give at least one scope of ${ALL_SCOPES}`],
        ])
      })

      validation('--expires that is not a whole number of days from 1 to 3650', async () => {
        await expectRefused(1, [
          [['create-token', 'erin', '--scopes', 'read', '--expires', '0'], EXPIRES_ERROR],
          [['create-token', 'erin', '--scopes', 'read', '--expires', '-1'], EXPIRES_ERROR],
          [['create-token', 'erin', '--scopes', 'read', '--expires', 'abc'], EXPIRES_ERROR],
          [['create-token', 'erin', '--scopes', 'read', '--expires', '1.5'], EXPIRES_ERROR],
          [['create-token', 'erin', '--scopes', 'read', '--expires', '3651'], EXPIRES_ERROR],
          [['create-token', 'erin', '--scopes', 'read', '--expires', ''], EXPIRES_ERROR],
        ])
      })

      it('an unknown token id', async () => {
        await expectRefused(1, [
          [['revoke-token', 'tok_nope'], "there is no token 'tok_nope'"],
          [
            ['revoke-token', 'tok_0123456789abcdef01234567'],
            "there is no token 'tok_0123456789abcdef01234567'",
          ],
        ])
      })

      validation('a missing required option or option value: exit 2', async () => {
        await expectRefused(2, [
          [['create-org', 'newco'], "required option '--owner <user>' not specified"],
          [['add-member', 'errco', 'erin'], "required option '--role <role>' not specified"],
          [['create-token', 'erin'], "required option '--scopes <scopes>' not specified"],
          [
            ['create-token', 'erin', '--scopes', 'read', '--expires'],
            "option '--expires <days>' argument missing",
          ],
        ])
      })

      validation('a missing argument or an unknown option: exit 2', async () => {
        await expectRefused(2, [
          [['create-user'], "missing required argument 'handle'"],
          [['add-member', 'errco', '--role', 'reader'], "missing required argument 'user'"],
          [['revoke-token'], "missing required argument 'id'"],
          [['create-api-key'], "missing required argument 'org'"],
          [['create-user', 'newbie', '--bogus'], "unknown option '--bogus'"],
        ])
        const bare = await hub.admin([])
        expect(bare.code).toBe(2)
        expect(bare.stdout).toBe('')
        expect(bare.stderr).toContain('create-token')
        const help = await hub.admin(['create-token', '--help'])
        expect(help.code).toBe(0)
        expect(help.stdout).toContain('--scopes <scopes>')
      })
    })
  })
}
