import { addMember, createAccount, createOrg, createToken } from '../../src/accounts/admin.js'
import type { Store } from '../../src/store/store.js'
import type { HubProcess } from './hub-process.js'

export type People = {
  /** Owner of the org `acme` and of the user account `alice`. */
  alice: string
  /** Writer in `acme`. */
  walt: string
  /** Reader in `acme`. */
  rita: string
  /** Not a member of `acme`. */
  nora: string
  /** alice with only `read`. */
  aliceReadOnly: string
  /** alice with only `write:projects`. */
  aliceProjects: string
  /** alice's token, revoked. */
  aliceRevoked: string
  /** alice's token, expired. */
  aliceExpired: string
  /** Token ids by name, for revocation in tests. */
  ids: Record<string, string>
}

const ALL = 'read,write:releases,write:projects,write:apis'

/** Users alice (owner of org acme), walt (writer), rita (reader), nora (outsider), with PATs. */
export async function seedPeople(hub: HubProcess): Promise<People> {
  const store = await hub.openStore()
  try {
    return await seed(store)
  } finally {
    await store.close()
  }
}

async function seed(store: Store): Promise<People> {
  for (const handle of ['alice', 'walt', 'rita', 'nora']) await createAccount(store, handle, 'user')
  await createOrg(store, 'acme', 'alice')
  await addMember(store, 'acme', 'walt', 'writer')
  await addMember(store, 'acme', 'rita', 'reader')
  const ids: Record<string, string> = {}
  const token = async (name: string, user: string, scopes: string) => {
    const created = await createToken(store, user, scopes)
    ids[name] = created.id
    return created.token
  }
  const people = {
    alice: await token('alice', 'alice', ALL),
    walt: await token('walt', 'walt', ALL),
    rita: await token('rita', 'rita', ALL),
    nora: await token('nora', 'nora', ALL),
    aliceReadOnly: await token('aliceReadOnly', 'alice', 'read'),
    aliceProjects: await token('aliceProjects', 'alice', 'write:projects'),
    aliceRevoked: await token('aliceRevoked', 'alice', ALL),
    aliceExpired: await token('aliceExpired', 'alice', ALL),
    ids,
  }
  await store.accounts.revokeToken(ids.aliceRevoked!)
  await store.kysely
    .updateTable('tokens')
    .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
    .where('id', '=', ids.aliceExpired!)
    .execute()
  return people
}

/**
 * More PATs for the seeded users, by name: `{ name: [user, 'scope,scope'] }` (for scopes the
 * seeded tokens lack, such as `admin:webhooks`).
 */
export async function seedTokens<K extends string>(
  hub: HubProcess,
  wanted: Record<K, readonly [user: string, scopes: string]>,
): Promise<Record<K, string>> {
  const store = await hub.openStore()
  try {
    const tokens = {} as Record<K, string>
    for (const [name, [user, scopes]] of Object.entries(wanted) as [K, [string, string]][]) {
      tokens[name] = (await createToken(store, user, scopes)).token
    }
    return tokens
  } finally {
    await store.close()
  }
}

/** A new PAT of `user` with `scopes` (`read,write:apis`), made by `svc-hub admin create-token`. */
export async function adminToken(
  hub: Pick<HubProcess, 'admin'>,
  user: string,
  scopes: string,
): Promise<string> {
  const run = await hub.admin(['create-token', user, '--scopes', scopes, '--json'])
  if (run.code !== 0) throw new Error(`svc-hub admin create-token ${user}: ${run.stderr}`)
  return (JSON.parse(run.stdout) as { token: string }).token
}
