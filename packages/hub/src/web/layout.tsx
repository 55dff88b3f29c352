import { raw } from 'hono/html'
import type { Child } from 'hono/jsx'
import { CsrfField } from './components.js'
import type { Flash, ShownSecret, Viewer } from './env.js'
import { STYLESHEET_PATH } from './assets/index.js'

export type Crumb = { readonly label: string; readonly href?: string }

type LayoutProps = {
  title: string
  viewer: Viewer | undefined
  csrfToken: string
  flash: Flash | undefined
  secret: ShownSecret | undefined
  crumbs: readonly Crumb[]
  section: 'apis' | 'stacks' | 'projects' | 'settings' | undefined
  refreshSeconds: number | undefined
  children?: Child
}

/** Every page: the top bar with navigation and the viewer, the trail, the notice, the page. */
export function Layout(props: LayoutProps) {
  const current = (section: LayoutProps['section']) =>
    props.section === section ? { 'aria-current': 'page' as const } : {}
  return (
    <>
      {raw('<!doctype html>')}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          {props.refreshSeconds ? (
            <meta http-equiv="refresh" content={String(props.refreshSeconds)} />
          ) : null}
          <title>{`${props.title} · svc hub`}</title>
          <link rel="stylesheet" href={STYLESHEET_PATH} />
        </head>
        <body>
          <header class="top">
            <div class="bar">
              <a class="brand" href="/">
                svc hub
              </a>
              <nav aria-label="Main">
                <a href="/apis" {...current('apis')}>
                  APIs
                </a>
                {props.viewer ? (
                  <>
                    <a href="/stacks" {...current('stacks')}>
                      Stacks
                    </a>
                    <a href="/projects" {...current('projects')}>
                      Projects
                    </a>
                  </>
                ) : null}
              </nav>
              <div class="me">
                {props.viewer ? (
                  <>
                    <a href="/settings" {...current('settings')} data-testid="viewer">
                      {props.viewer.handle}
                    </a>
                    <form method="post" action="/signout">
                      <CsrfField token={props.csrfToken} />
                      <button type="submit" class="link">
                        Sign out
                      </button>
                    </form>
                  </>
                ) : (
                  <>
                    <a href="/signin">Sign in</a>
                    <a href="/signup">Sign up</a>
                  </>
                )}
              </div>
            </div>
          </header>
          <main>
            {props.crumbs.length > 0 ? (
              <div class="crumbs">
                {props.crumbs.map((crumb, i) => (
                  <>
                    {i > 0 ? ' / ' : ''}
                    {crumb.href ? <a href={crumb.href}>{crumb.label}</a> : crumb.label}
                  </>
                ))}
              </div>
            ) : null}
            {props.flash ? <FlashNotice flash={props.flash} secret={props.secret} /> : null}
            {props.children}
          </main>
          <footer>svc hub · APIs, their changes, and the code generated from them</footer>
        </body>
      </html>
    </>
  )
}

function FlashNotice({ flash, secret }: { flash: Flash; secret: ShownSecret | undefined }) {
  return (
    <div class={`flash ${flash.kind}`} role={flash.kind === 'error' ? 'alert' : 'status'}>
      {flash.message}
      {secret?.value !== undefined ? (
        <div class="secret">
          <strong>{secret.label}</strong> — copy it now; it is not shown again.
          <code data-testid="secret">{secret.value}</code>
        </div>
      ) : secret ? (
        <div class="secret" data-testid="secret-lost">
          <strong>{secret.label}</strong> cannot be shown here: only in the browser that made it,
          within 10 minutes. Make or rotate another.
        </div>
      ) : null}
    </div>
  )
}
