import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse as parseYaml } from 'yaml'
import { call } from '../../hub/test/support/http.js'
import { REPO_ROOT, runCommand, type SvcRun } from './support/run-svc.js'
import { startTestHub, type TestHub } from './support/hub.js'

// The CI recipes of docs/ci-recipes.md, run as a runner runs them: ci/github/run.sh (the GitHub
// Action's step) and the GitLab template's jobs, in a folder outside this workspace, installing
// the CLI from the hub's download URL with plain npm. GitHub's and GitLab's comment APIs are
// stand-ins on loopback; the hub is the real one.

const ACTION_DIR = join(REPO_ROOT, 'ci/github')
const GITLAB_TEMPLATE = join(REPO_ROOT, 'ci/gitlab/svc.gitlab-ci.yml')
const API = 'acme/payments'

const BASE = `openapi: 3.0.3
info:
  title: Payments
  version: 1.0.0
paths:
  /payments:
    get:
      operationId: listPayments
      parameters:
        - name: limit
          in: query
          schema:
            type: integer
      responses:
        '200':
          description: The payments
          content:
            application/json:
              schema:
                type: array
                items:
                  type: string
`

/** The branch's description: a new required query parameter, breaking for every caller. */
const BRANCH = BASE.replace(
  `            type: integer
`,
  `            type: integer
        - name: tenant
          in: query
          required: true
          schema:
            type: string
`,
)

function runBash(args: readonly string[], cwd: string, env: Record<string, string>) {
  return runProgram('bash', args, cwd, env)
}

/** A program as a runner's job runs it: a clean environment with node and npm on the PATH. */
function runProgram(
  file: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string>,
): Promise<SvcRun> {
  return runCommand(file, args, {
    cwd,
    env: {
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
      HOME: process.env.HOME ?? tmpdir(),
      npm_config_prefer_offline: 'true',
      npm_config_update_notifier: 'false',
      ...env,
    },
    timeoutMs: 240_000,
  })
}

/** A stand-in for the comment API of GitHub or GitLab: comments by id, every request seen. */
type Comment = { id: number; body: string }
type StandIn = {
  url: string
  comments: Comment[]
  requests: { method: string; path: string; auth: string | undefined }[]
  close(): Promise<void>
}

async function commentApi(kind: 'github' | 'gitlab'): Promise<StandIn> {
  const comments: Comment[] = []
  const requests: StandIn['requests'] = []
  let next = 1
  const server: Server = createServer((request, response) => {
    void readBody(request).then((body) => answer(request, response, body))
  })
  function answer(request: IncomingMessage, response: ServerResponse, body: string) {
    const path = request.url ?? ''
    const auth =
      kind === 'github'
        ? request.headers.authorization
        : (request.headers['private-token'] as string | undefined)
    requests.push({ method: request.method ?? '', path, auth })
    const send = (status: number, value: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' })
      response.end(JSON.stringify(value))
    }
    const list = kind === 'github' ? /\/issues\/\d+\/comments(\?|$)/ : /\/notes(\?|$)/
    const one = kind === 'github' ? /\/issues\/comments\/(\d+)$/ : /\/notes\/(\d+)$/
    if (request.method === 'GET' && list.test(path)) return send(200, comments)
    if (request.method === 'POST' && list.test(path)) {
      const comment = { id: next++, body: (JSON.parse(body) as { body: string }).body }
      comments.push(comment)
      return send(201, comment)
    }
    const match = one.exec(path)
    if (match && (request.method === 'PATCH' || request.method === 'PUT')) {
      const comment = comments.find((c) => c.id === Number(match[1]))
      if (!comment) return send(404, { message: 'Not Found' })
      comment.body = (JSON.parse(body) as { body: string }).body
      return send(200, comment)
    }
    send(404, { message: 'Not Found' })
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}${kind === 'gitlab' ? '/api/v4' : ''}`,
    comments,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
  })
}

/** The 1-based number of the first line of `text` that contains `needle`. */
function lineOf(text: string, needle: string): number {
  const index = text.split('\n').findIndex((line) => line.includes(needle))
  if (index === -1) throw new Error(`no line contains ${needle}`)
  return index + 1
}

let hub: TestHub
let work: string
let repo: string
let github: StandIn
let gitlab: StandIn

beforeAll(async () => {
  hub = await startTestHub()
  work = mkdtempSync(join(tmpdir(), 'svc-ci-recipes-'))
  repo = join(work, 'repo')
  mkdirSync(repo)
  writeFileSync(join(repo, 'openapi.yaml'), BRANCH)
  github = await commentApi('github')
  gitlab = await commentApi('gitlab')
  const created = await call(`${hub.url}/v1/apis`, {
    method: 'POST',
    token: hub.people.alice,
    json: { owner: 'acme', slug: 'payments', name: 'Payments' },
  })
  expect(created.status).toBe(201)
  const pushed = await call(`${hub.url}/v1/apis/${API}/revisions`, {
    method: 'POST',
    token: hub.people.alice,
    headers: { 'content-type': 'application/yaml' },
    body: BASE,
  })
  expect(pushed.status).toBe(201)
}, 120_000)

afterAll(async () => {
  await Promise.all([hub?.dispose(), github?.close(), gitlab?.close()])
  if (work) rmSync(work, { recursive: true, force: true })
})

function actionEnv(overrides: Record<string, string>): Record<string, string> {
  const event = join(work, 'event.json')
  writeFileSync(event, JSON.stringify({ number: 7, pull_request: { number: 7 } }))
  return {
    SVC_API: API,
    SVC_FILE: 'openapi.yaml',
    SVC_API_ORIGIN: hub.url,
    SVC_HUB_TOKEN: hub.people.alice,
    SVC_FAIL_ON: 'breaking',
    SVC_PUSH_BRANCH: 'main',
    SVC_WAIVERS: '',
    SVC_COMMENT: 'true',
    GITHUB_TOKEN: 'ghs_standin',
    GITHUB_API_URL: github.url,
    GITHUB_REPOSITORY: 'acme/payments-service',
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: event,
    GITHUB_REF: 'refs/pull/7/merge',
    GITHUB_SHA: '0123456789abcdef',
    GITHUB_STEP_SUMMARY: join(work, 'summary.md'),
    RUNNER_TEMP: join(work, 'runner-temp'),
    ...overrides,
  }
}

describe('the GitHub Action (ci/github)', () => {
  it('maps every input of action.yml to the variable run.sh reads', () => {
    const action = parseYaml(readFileSync(join(ACTION_DIR, 'action.yml'), 'utf8')) as {
      inputs: Record<string, { required?: boolean }>
      runs: { using: string; steps: { run: string; env: Record<string, string> }[] }
    }
    expect(action.runs.using).toBe('composite')
    const [step] = action.runs.steps
    expect(step!.run).toContain('$GITHUB_ACTION_PATH/run.sh')
    const script = readFileSync(join(ACTION_DIR, 'run.sh'), 'utf8')
    const mapped = Object.entries(step!.env)
    expect(mapped.map(([, value]) => value).sort()).toEqual(
      Object.keys(action.inputs)
        .map((input) => `\${{ inputs.${input} }}`)
        .sort(),
    )
    for (const [variable] of mapped)
      if (variable !== 'GITHUB_TOKEN') expect(script).toContain(variable)
  })

  it('on a pull request: annotations at the changed line, one comment kept up to date, the gate fails', async () => {
    const first = await runBash([join(ACTION_DIR, 'run.sh')], repo, actionEnv({}))
    expect(first.code, first.stderr).toBe(1)
    const line = lineOf(BRANCH, '- name: tenant')
    const annotation = first.stdout
      .split('\n')
      .find((l) => l.startsWith('::error ') && l.includes('tenant'))
    expect(annotation, first.stdout).toBeDefined()
    expect(annotation).toContain('file=openapi.yaml')
    expect(annotation).toMatch(new RegExp(`line=${line}(,|::)`))
    // Nothing is stored by a pull request.
    const listed = await hub.get(`/v1/apis/${API}/revisions`)
    expect(listed.body.revisions).toHaveLength(1)

    expect(github.comments).toHaveLength(1)
    expect(github.comments[0]!.body).toContain(`<!-- svc api diff ${API} -->`)
    expect(github.comments[0]!.body).toContain('tenant')
    expect(github.requests.every((r) => r.auth === 'Bearer ghs_standin')).toBe(true)
    expect(readFileSync(join(work, 'summary.md'), 'utf8')).toContain('tenant')

    // A second push to the branch edits the same comment.
    const second = await runBash([join(ACTION_DIR, 'run.sh')], repo, actionEnv({}))
    expect(second.code).toBe(1)
    expect(github.comments).toHaveLength(1)
    expect(github.requests.filter((r) => r.method === 'PATCH')).toHaveLength(1)
  })

  it('on a pull request: a waiver in the repository accepts the change', async () => {
    const waivers = join(repo, 'svc-waivers.yaml')
    const changes = await call(`${hub.url}/v1/apis/${API}/diff?against=latest`, {
      method: 'POST',
      token: hub.people.alice,
      headers: { 'content-type': 'application/yaml' },
      body: BRANCH,
    })
    expect(changes.status, changes.text).toBe(200)
    const breaking = (changes.body.changes as { id: string; level: string }[]).filter(
      (change) => change.level === 'breaking',
    )
    expect(breaking.length).toBeGreaterThan(0)
    writeFileSync(
      waivers,
      `waivers:\n${breaking
        .map(
          (change) =>
            `  - rule: ${change.id}\n    operation: GET /payments\n    reason: Every caller sends a tenant since the gateway change.\n`,
        )
        .join('')}`,
    )
    try {
      const run = await runBash([join(ACTION_DIR, 'run.sh')], repo, actionEnv({}))
      expect(run.code, run.stdout + run.stderr).toBe(0)
      expect(run.stdout).not.toMatch(/^::error /m)
      expect(github.comments[0]!.body).toMatch(/waived/i)
    } finally {
      rmSync(waivers)
    }
  })

  it('on the main branch: pushes, fails on the breaking change, passes once it is accepted', async () => {
    const env = actionEnv({ GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/heads/main' })
    const pushed = await runBash([join(ACTION_DIR, 'run.sh')], repo, env)
    expect(pushed.code, pushed.stdout + pushed.stderr).toBe(1)
    const latest = await hub.get(`/v1/apis/${API}/revisions/latest`)
    expect(latest.body.sequence).toBe(2)
    expect(latest.body.version).toBe('0123456')

    const svc = join(work, 'runner-temp/svc-action/cli/node_modules/.bin/svc')
    expect(existsSync(svc)).toBe(true)
    const accepted = await runProgram(
      svc,
      ['api', 'accept', API, '2', '--reason', 'Announced to every customer in November.'],
      repo,
      { SVC_API_ORIGIN: hub.url, SVC_HUB_TOKEN: hub.people.alice },
    )
    expect(accepted.code, accepted.stderr).toBe(0)
    const rerun = await runBash([join(ACTION_DIR, 'run.sh')], repo, env)
    expect(rerun.code, rerun.stdout + rerun.stderr).toBe(0)
    expect(rerun.stdout + rerun.stderr).toMatch(/accepted/i)
    // The accepted change is a notice naming who accepted it, not an error of a passing job.
    expect(rerun.stdout).not.toMatch(/^::error /m)
    expect(rerun.stdout).toMatch(/^::notice .*title=[^:]*\(accepted\)::.*Accepted by alice at /m)
  })
})

describe('the GitLab template (ci/gitlab/svc.gitlab-ci.yml)', () => {
  type Job = { extends?: string; script: string[]; before_script?: string[]; rules?: unknown }
  const template = () =>
    parseYaml(readFileSync(GITLAB_TEMPLATE, 'utf8')) as Record<string, Job> & {
      variables: Record<string, string>
    }

  /** A job's commands as the runner runs them: before_script (also inherited), then script. */
  function jobScript(name: string): string {
    const all = template()
    const job = all[name]!
    const before = job.before_script ?? (job.extends ? all[job.extends]!.before_script : []) ?? []
    return [...before, ...job.script].join('\n')
  }

  function gitlabEnv(overrides: Record<string, string>): Record<string, string> {
    return {
      ...template().variables,
      SVC_API: API,
      SVC_FILE: 'openapi.yaml',
      SVC_API_ORIGIN: hub.url,
      SVC_HUB_TOKEN: hub.people.alice,
      SVC_GITLAB_TOKEN: 'glpat-standin',
      CI_PROJECT_DIR: repo,
      CI_API_V4_URL: gitlab.url,
      CI_PROJECT_ID: '42',
      CI_MERGE_REQUEST_IID: '3',
      CI_PIPELINE_SOURCE: 'merge_request_event',
      CI_COMMIT_SHORT_SHA: 'fedcba9',
      ...overrides,
    }
  }

  it('svc-api-diff: a JUnit report with the failing endpoint, one merge-request note, the gate fails', async () => {
    // Main now holds the branch's description (the GitHub test pushed it): compare a newer one.
    const next = BRANCH.replace(
      'items:\n                  type: string',
      'items:\n                  type: integer',
    )
    expect(next).not.toBe(BRANCH)
    writeFileSync(join(repo, 'openapi.yaml'), next)
    try {
      const run = await runBash(
        ['-eo', 'pipefail', '-c', jobScript('svc-api-diff')],
        repo,
        gitlabEnv({}),
      )
      expect(run.code, run.stdout + run.stderr).not.toBe(0)
      const xml = readFileSync(join(repo, 'svc-api-diff.xml'), 'utf8')
      expect(XMLValidator.validate(xml)).toBe(true)
      const report = new XMLParser({ ignoreAttributes: false }).parse(xml) as Record<string, any>
      expect(JSON.stringify(report)).toContain('GET /payments')
      expect(xml).toMatch(/<failure/)
      expect(gitlab.comments).toHaveLength(1)
      expect(gitlab.comments[0]!.body).toContain(`<!-- svc api diff ${API} -->`)
      expect(gitlab.requests.some((r) => r.auth === 'glpat-standin')).toBe(true)

      await runBash(['-eo', 'pipefail', '-c', jobScript('svc-api-diff')], repo, gitlabEnv({}))
      expect(gitlab.comments).toHaveLength(1)
      expect(gitlab.requests.filter((r) => r.method === 'PUT')).toHaveLength(1)
    } finally {
      writeFileSync(join(repo, 'openapi.yaml'), BRANCH)
    }
  })

  it('svc-api-push: stores the revision labelled with the commit on the default branch', async () => {
    const before = (await hub.get(`/v1/apis/${API}/revisions/latest`)).body.sequence as number
    writeFileSync(
      join(repo, 'openapi.yaml'),
      BRANCH.replace('title: Payments', 'title: Payments API'),
    )
    try {
      const run = await runBash(
        ['-eo', 'pipefail', '-c', jobScript('svc-api-push')],
        repo,
        gitlabEnv({
          CI_PIPELINE_SOURCE: 'push',
          CI_COMMIT_BRANCH: 'main',
          CI_DEFAULT_BRANCH: 'main',
        }),
      )
      expect(run.code, run.stdout + run.stderr).toBe(0)
      const latest = await hub.get(`/v1/apis/${API}/revisions/latest`)
      expect(latest.body.sequence).toBe(before + 1)
      expect(latest.body.version).toBe('fedcba9')
    } finally {
      writeFileSync(join(repo, 'openapi.yaml'), BRANCH)
    }
  })
})

describe('docs/ci-recipes.md', () => {
  const page = readFileSync(join(REPO_ROOT, 'docs/ci-recipes.md'), 'utf8')

  it('holds the GitLab template exactly as the tests run it', () => {
    expect(page).toContain('```yaml\n' + readFileSync(GITLAB_TEMPLATE, 'utf8') + '```')
  })

  it("shows a workflow whose `with:` gives the action's required inputs and only its inputs", () => {
    const action = parseYaml(readFileSync(join(ACTION_DIR, 'action.yml'), 'utf8')) as {
      inputs: Record<string, { required?: boolean }>
    }
    const workflow = /```yaml\n(name: API[\s\S]*?)```/.exec(page)
    expect(workflow).not.toBeNull()
    const parsed = parseYaml(workflow![1]!) as {
      jobs: { api: { steps: { uses?: string; with?: Record<string, string> }[] } }
    }
    const step = parsed.jobs.api.steps.find((s) => s.uses?.includes('/ci/github@'))!
    const given = Object.keys(step.with ?? {})
    for (const input of given) expect(Object.keys(action.inputs)).toContain(input)
    for (const [input, spec] of Object.entries(action.inputs))
      if (spec.required) expect(given).toContain(input)
    // The table lists every input.
    for (const input of Object.keys(action.inputs)) expect(page).toContain(`| \`${input}\` |`)
  })
})
