import { Hono } from 'hono'
import type { WebEnv } from '../env.js'
import { page } from '../responses.js'

/** The start page: what a visitor can do here, or where a signed-in user left off. */
export const homePages = new Hono<WebEnv>().get('/', (c) => {
  const viewer = c.get('viewer')
  if (!viewer) {
    return page(
      c,
      { title: 'Welcome' },
      <div class="narrow card">
        <h1>svc hub</h1>
        <p>
          Publish API descriptions, see what changed between revisions, get signed webhooks when
          they do, and generate typed clients from them.
        </p>
        <p class="row">
          <a class="button primary" href="/signin">
            Sign in
          </a>
          <a class="button" href="/signup">
            Create an account
          </a>
          <a href="/apis">Browse public APIs</a>
        </p>
      </div>,
    )
  }
  return page(
    c,
    { title: 'Home' },
    <>
      <h1>Welcome, {viewer.handle}</h1>
      <p class="lead">Where to go from here:</p>
      <div class="grid2">
        <a class="card" href="/apis">
          <strong>APIs</strong>
          <div class="muted">Descriptions, revisions, their changes and webhooks.</div>
        </a>
        <a class="card" href="/stacks">
          <strong>Stacks</strong>
          <div class="muted">Published generator bundles and their versions.</div>
        </a>
        <a class="card" href="/projects">
          <strong>Projects</strong>
          <div class="muted">A stack bound to an API: config, deployments and runs.</div>
        </a>
        <a class="card" href="/settings">
          <strong>Settings</strong>
          <div class="muted">Your account, organisations, tokens and API keys.</div>
        </a>
      </div>
    </>,
  )
})
