import { createHash } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import { createRoute, z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { ApiError } from '../errors/index.js'
import type { HubEnv } from '../http/env.js'
import { createRouter, errorResponses } from '../http/router.js'
import { CLI_TARBALL, cliTarballPath } from '../downloads/cli-tarball.js'
import { HUB_VERSION } from '../version.js'

/**
 * `/downloads/…`: the svc CLI's tarball, for `npm i <hub>/downloads/svc-cli.tgz`. Outside `/v1`
 * and without a token: a CI runner installs the CLI before it has any credential.
 */
export const downloads = createRouter()

downloads.openapi(
  createRoute({
    method: 'get',
    path: '/{file}',
    tags: ['downloads'],
    summary: 'Download the svc CLI of this hub’s version, an npm tarball',
    description:
      '`svc-cli.tgz` is the CLI of the hub’s version (revalidate with `If-None-Match`), ' +
      '`svc-cli-<version>.tgz` the same file under its version (immutable); any other version is 404. ' +
      'No token needed; HEAD works too.',
    security: [],
    request: {
      params: z.object({ file: z.string().openapi({ example: 'svc-cli.tgz' }) }),
      headers: z.object({ 'if-none-match': z.string().optional() }),
    },
    responses: {
      200: {
        description: 'The tarball',
        headers: {
          ETag: { schema: { type: 'string' }, description: 'The SHA-256 of the tarball' },
          'Cache-Control': {
            schema: { type: 'string' },
            description: '`no-cache` for `svc-cli.tgz`, `immutable` for a versioned name',
          },
        },
        content: { 'application/gzip': { schema: { type: 'string', format: 'binary' } } },
      },
      304: { description: 'The tarball has the ETag sent in `If-None-Match`' },
      ...errorResponses(404),
    },
  }),
  async (c) => {
    const file = c.req.param('file')
    const versioned = file === CLI_TARBALL
    if (file !== 'svc-cli.tgz' && !versioned) throw notHere(file)
    const tarball = await readTarball(c)
    const headers = {
      'Content-Type': 'application/gzip',
      'Content-Disposition': `attachment; filename="${CLI_TARBALL}"`,
      ETag: tarball.etag,
      'Cache-Control': versioned ? 'public, max-age=31536000, immutable' : 'public, no-cache',
    }
    if (matches(c.req.header('if-none-match'), tarball.etag)) return c.body(null, 304, headers)
    return c.body(tarball.bytes as Uint8Array<ArrayBuffer>, 200, {
      ...headers,
      'Content-Length': String(tarball.bytes.length),
    })
  },
)

// `/downloads/a/b`, `/downloads/`: the same JSON 404, not a page of the web app.
downloads.all('*', (c) => {
  throw notHere(c.req.path.slice('/downloads/'.length))
})

function notHere(file: string): ApiError {
  const shown = file.length > 100 ? `${file.slice(0, 100)}…` : file
  return new ApiError(
    'not_found',
    /^svc-cli-.+\.tgz$/.test(file)
      ? `This hub serves the svc CLI ${HUB_VERSION} only: /downloads/${CLI_TARBALL} (or /downloads/svc-cli.tgz), not ${shown}.`
      : `There is no download '${shown}'; this hub serves /downloads/svc-cli.tgz.`,
  )
}

type Tarball = { readonly bytes: Buffer; readonly etag: string }

/** The tarball last read, while its file keeps its size and time: read and hashed once. */
let cached: { readonly key: string; readonly tarball: Tarball } | undefined
let reportedMissing = false

async function readTarball(c: Context<HubEnv>): Promise<Tarball> {
  const path = cliTarballPath(c.get('hub').config.downloadsDir)
  try {
    const { size, mtimeMs, ino } = await stat(path)
    const key = `${path}\0${size}\0${mtimeMs}\0${ino}`
    if (cached?.key !== key) {
      const bytes = await readFile(path)
      const etag = `"${createHash('sha256').update(bytes).digest('hex')}"`
      cached = { key, tarball: { bytes, etag } }
    }
    return cached.tarball
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    if (!reportedMissing) {
      reportedMissing = true
      c.get('log').warn({ path }, 'the CLI tarball is missing; /downloads answers 404')
    }
    throw new ApiError(
      'not_found',
      `This hub has no ${CLI_TARBALL} to serve yet: its operator builds it with 'npm run build' in the svc repository (scripts/pack-cli.js writes it to packages/hub/downloads/) or sets SVC_HUB_DOWNLOADS_DIR to the folder that holds it.`,
    )
  }
}

/** `If-None-Match`: `*` or a list of ETags, weak ones compared as strong (RFC 9110 §13.1.2). */
function matches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false
  if (header.trim() === '*') return true
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)
}
