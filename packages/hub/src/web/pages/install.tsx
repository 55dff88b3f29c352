import { existsSync } from 'node:fs'
import { Hono } from 'hono'
import { CLI_TARBALL, cliTarballPath, installLines } from '../../downloads/cli-tarball.js'
import type { WebEnv } from '../env.js'
import { page } from '../responses.js'
import { HUB_VERSION } from '../../version.js'

/** `/install`: the one line that installs the svc command from this hub, for anyone. */
export const installPages = new Hono<WebEnv>().get('/install', (c) => {
  const { config } = c.get('hub')
  const origin = config.publicUrl
  const lines = installLines(origin)
  const built = existsSync(cliTarballPath(config.downloadsDir))
  return page(
    c,
    { title: 'Install the svc command' },
    <div class="narrow">
      <h1>Install the svc command</h1>
      <p class="lead">
        The <code>svc</code> command of this hub ({HUB_VERSION}) is an npm package,{' '}
        <code>@svc/cli</code>, served by the hub itself. It needs Node.js 20.19 or later.
      </p>
      {built ? null : (
        <p class="flash error" data-testid="not-built">
          This hub has no <code>{CLI_TARBALL}</code> to serve yet: its operator builds it with{' '}
          <code>npm run build</code> (or points <code>SVC_HUB_DOWNLOADS_DIR</code> at it).
        </p>
      )}
      <h2>In a project</h2>
      <pre data-testid="install-project">{lines.project}</pre>
      <p>
        Then <code>npx svc …</code> runs it inside that project. Outside a project that installed{' '}
        <code>@svc/cli</code>, <code>npx svc</code> would fetch an unrelated npm package named{' '}
        <code>svc</code>.
      </p>
      <h2>On a CI runner</h2>
      <pre data-testid="install-runner">{`${lines.runner}\nsvc api push <owner>/<api> openapi.yaml --fail-on breaking`}</pre>
      <p>Or for one command, without installing:</p>
      <pre data-testid="install-once">{lines.once}</pre>
      <p>
        The file: <a href={`/downloads/${CLI_TARBALL}`}>{`/downloads/${CLI_TARBALL}`}</a> (also{' '}
        <a href="/downloads/svc-cli.tgz">/downloads/svc-cli.tgz</a>, always this hub's version).
        Then sign in: <code>svc login --origin {origin}</code>.
      </p>
    </div>,
  )
})
