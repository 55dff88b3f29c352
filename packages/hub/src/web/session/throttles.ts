import type { WebContext } from '../env.js'
import { AddressBudget } from './address-budget.js'
import { SignInThrottle } from './sign-in-throttle.js'

/** Sign-up forms one client address may post per hour: accounts are not made in bulk. */
export const SIGN_UPS_PER_HOUR = 20
/** Change-password forms one client address may post per 15 minutes: each tries a password. */
export const PASSWORD_CHANGES_PER_15_MINUTES = 5

/** The counts that pace the forms that check or make passwords (docs/web/README.md). */
export type AuthThrottles = {
  readonly signIn: SignInThrottle
  readonly signUp: AddressBudget
  readonly passwordChange: AddressBudget
}

/** One set per hub (its services), so two hubs in one process, as in tests, count apart. */
const OF_HUB = new WeakMap<object, AuthThrottles>()

/** The throttles of the hub that answers `c`. */
export function authThrottles(c: WebContext): AuthThrottles {
  const hub = c.get('hub')
  let throttles = OF_HUB.get(hub)
  if (!throttles) {
    throttles = {
      signIn: new SignInThrottle(),
      signUp: new AddressBudget({
        name: 'sign-up',
        max: SIGN_UPS_PER_HOUR,
        windowSeconds: 60 * 60,
      }),
      passwordChange: new AddressBudget({
        name: 'password-change',
        max: PASSWORD_CHANGES_PER_15_MINUTES,
        windowSeconds: 15 * 60,
      }),
    }
    OF_HUB.set(hub, throttles)
  }
  return throttles
}
