import { UserSchema, type User } from '@svc/hub-api'
import type { WebContext } from './env.js'

/** The viewer as `GET /v1/user` tells it: its handle and its organisations with its role in each. */
export type ViewerAccounts = Pick<User, 'handle' | 'organizations'>

/** The viewer's accounts, or undefined when signed out. */
export async function viewerAccounts(c: WebContext): Promise<ViewerAccounts | undefined> {
  if (!c.get('viewer')) return undefined
  const me = await c.get('api').get(UserSchema, '/user')
  return me.ok ? me.data : undefined
}

/** The accounts the viewer may create things under: its own and its organisations where it writes. */
export function writableAccounts(me: ViewerAccounts): string[] {
  return [me.handle, ...me.organizations.filter((o) => o.role !== 'reader').map((o) => o.handle)]
}

/**
 * Whether the viewer may change what `account` owns: a page shows its forms only then (the API
 * still decides every write).
 */
export async function viewerCanWrite(c: WebContext, account: string): Promise<boolean> {
  const viewer = c.get('viewer')
  if (!viewer) return false
  if (viewer.handle === account) return true
  const me = await viewerAccounts(c)
  return me !== undefined && writableAccounts(me).includes(account)
}
