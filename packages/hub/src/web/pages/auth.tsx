import { Hono } from 'hono'
import { handleProblem } from '@svc/project-format'
import { Field, Form, FormError } from '../components.js'
import type { WebContext, WebEnv } from '../env.js'
import { page, redirectWith, retryAfter } from '../responses.js'
import { DECOY_HASH, hashPassword, passwordProblem, verifyPassword } from '../../auth/passwords.js'
import { endSession, startSession } from '../session/sessions.js'
import { authThrottles } from '../session/throttles.js'
import { formText } from '../forms.js'

/** Sign up, sign in and sign out. */
export function authPages() {
  const pages = new Hono<WebEnv>()

  pages.get('/signup', (c) => {
    if (c.get('viewer')) return c.redirect('/', 303)
    return signUpPage(c, {})
  })

  pages.post('/signup', async (c) => {
    if (c.get('viewer')) return c.redirect('/', 303)
    if (c.get('hub').config.signup === 'closed') return signUpPage(c, {}, 403)
    const form = await c.req.parseBody()
    const handle = formText(form, 'handle').trim().toLowerCase()
    const wait = await authThrottles(c).signUp.spend(c.get('client').address)
    if (wait > 0) {
      const message = `Too many sign-ups from your address. Try again ${retryAfter(c, wait)}.`
      return signUpPage(c, { handle, errors: { form: message } }, 429)
    }
    const password = formText(form, 'password')
    const errors: SignUpErrors = {}
    errors.handle = handleProblem(handle)
    errors.password = passwordProblem(password, handle || '\u0000')
    if (!errors.password && formText(form, 'confirm') !== password) {
      errors.confirm = 'The two passwords differ.'
    }
    if (errors.handle || errors.password || errors.confirm) {
      return signUpPage(c, { handle, errors }, 422)
    }
    const { store } = c.get('hub')
    const hash = await hashPassword(password)
    let userId: string
    try {
      userId = await store.transaction(async (tx) => {
        const user = await tx.accounts.create(handle, 'user')
        await tx.sessions.setPassword(user.id, hash)
        return user.id
      })
    } catch (error) {
      if (!store.capabilities.isUniqueViolation(error)) throw error
      return signUpPage(
        c,
        { handle, errors: { handle: `'${handle}' is taken by a user or an organisation.` } },
        422,
      )
    }
    await startSession(c, userId, handle)
    return redirectWith(c, '/', { kind: 'success', message: `Welcome to svc hub, ${handle}.` })
  })

  pages.get('/signin', (c) => {
    if (c.get('viewer')) return c.redirect(safeNext(c.req.query('next')), 303)
    return signInPage(c, { next: safeNext(c.req.query('next')) })
  })

  pages.post('/signin', async (c) => {
    const form = await c.req.parseBody()
    const handle = formText(form, 'handle').trim().toLowerCase()
    const password = formText(form, 'password')
    const next = safeNext(formText(form, 'next'))
    const address = c.get('client').address
    const throttle = authThrottles(c).signIn
    const { store } = c.get('hub')
    const account = handle ? await store.accounts.find(handle) : undefined
    // Handles are public (account pages), so which budget an attempt spends tells nothing new.
    const wait = await throttle.begin(handle, address, account?.kind === 'user')
    if (wait) {
      const error =
        wait.reason === 'account'
          ? `Too many failed sign-ins to this account from your address. Try again ${retryAfter(c, wait.seconds)}.`
          : `Too many failed sign-ins from your address to accounts that do not exist. Try again ${retryAfter(c, wait.seconds)}.`
      return signInPage(c, { handle, next, error }, 429)
    }
    const stored =
      account?.kind === 'user' ? await store.sessions.passwordOf(account.id) : undefined
    // Unknown users cost the same scrypt as known ones: the answer's time tells nothing.
    const matches = await verifyPassword(password, stored ?? DECOY_HASH)
    if (!account || !stored || !matches) {
      return signInPage(c, { handle, next, error: 'Incorrect handle or password.' }, 401)
    }
    await throttle.succeeded(handle, address)
    await startSession(c, account.id, account.handle)
    return c.redirect(next, 303)
  })

  pages.post('/signout', async (c) => {
    await endSession(c)
    return c.redirect('/', 303)
  })

  return pages
}

type SignUpErrors = {
  handle?: string | undefined
  password?: string | undefined
  confirm?: string
  form?: string
}

function signUpPage(
  c: WebContext,
  state: { handle?: string; errors?: SignUpErrors },
  status: 200 | 403 | 422 | 429 = 200,
) {
  if (c.get('hub').config.signup === 'closed') {
    return page(
      c,
      { title: 'Sign up', status: status === 200 ? 200 : 403 },
      <div class="narrow card">
        <h1>Sign-up is closed</h1>
        <p>This hub makes accounts only through its administrator. Ask them for one.</p>
      </div>,
    )
  }
  const errors = state.errors ?? {}
  return page(
    c,
    { title: 'Sign up', status },
    <div class="narrow">
      <h1>Create your account</h1>
      <p class="lead">
        Already have one? <a href="/signin">Sign in</a>.
      </p>
      <div class="card">
        <FormError message={errors.form} />
        <Form action="/signup" csrfToken={c.get('csrfToken')}>
          <Field
            name="handle"
            label="Handle"
            hint="Your name on the hub: lowercase letters, digits and inner hyphens."
            value={state.handle ?? ''}
            error={errors.handle}
            required
            autocomplete="username"
          />
          <Field
            name="password"
            label="Password"
            type="password"
            hint="At least 10 characters."
            error={errors.password}
            required
            autocomplete="new-password"
          />
          <Field
            name="confirm"
            label="Confirm password"
            type="password"
            error={errors.confirm}
            required
            autocomplete="new-password"
          />
          <div>
            <button type="submit" class="primary">
              Create account
            </button>
          </div>
        </Form>
      </div>
    </div>,
  )
}

function signInPage(
  c: WebContext,
  state: { handle?: string; next: string; error?: string },
  status: 200 | 401 | 429 = 200,
) {
  return page(
    c,
    { title: 'Sign in', status },
    <div class="narrow">
      <h1>Sign in to svc hub</h1>
      <p class="lead">
        New here? <a href="/signup">Create an account</a>.
      </p>
      <div class="card">
        <FormError message={state.error} />
        <Form action="/signin" csrfToken={c.get('csrfToken')}>
          <input type="hidden" name="next" value={state.next} />
          <Field
            name="handle"
            label="Handle"
            value={state.handle ?? ''}
            required
            autocomplete="username"
          />
          <Field
            name="password"
            label="Password"
            type="password"
            required
            autocomplete="current-password"
          />
          <div>
            <button type="submit" class="primary">
              Sign in
            </button>
          </div>
        </Form>
      </div>
    </div>,
  )
}

/** A path on this hub to go to after sign-in; anything else (another site, `//evil`) is `/`. */
export function safeNext(next: string | undefined): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/'
  return /^[\x21-\x7e]*$/.test(next) ? next : '/'
}
