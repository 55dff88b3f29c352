// Posts the changelog as one pull-request comment, or updates the comment an earlier run of the
// same job posted (found by its marker), so a pull request carries one current changelog per API.
// A refused comment (a pull request from a fork gets a read-only token) is a warning: the
// annotations and the job's result already tell.
import { readFileSync } from 'node:fs'

const [reportPath] = process.argv.slice(2)
const env = process.env
const api = env.GITHUB_API_URL || 'https://api.github.com'
const event = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, 'utf8'))
const number = event.pull_request?.number ?? event.number
const marker = `<!-- svc api diff ${env.SVC_API} -->`
const body = `${marker}\n${readFileSync(reportPath, 'utf8')}`

const headers = {
  Accept: 'application/vnd.github+json',
  Authorization: `Bearer ${env.GITHUB_TOKEN}`,
  'Content-Type': 'application/json',
  'User-Agent': 'svc-action',
  'X-GitHub-Api-Version': '2022-11-28',
}

async function call(method, path, payload) {
  const response = await fetch(`${api}${path}`, {
    method,
    headers,
    ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
  })
  if (!response.ok)
    throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`)
  return response.json()
}

async function earlierComment() {
  for (let page = 1; page <= 20; page++) {
    const comments = await call(
      'GET',
      `/repos/${env.GITHUB_REPOSITORY}/issues/${number}/comments?per_page=100&page=${page}`,
    )
    const found = comments.find((comment) => comment.body?.startsWith(marker))
    if (found || comments.length < 100) return found
  }
  return undefined
}

try {
  if (!number) throw new Error('the event has no pull request number')
  const earlier = await earlierComment()
  if (earlier) {
    await call('PATCH', `/repos/${env.GITHUB_REPOSITORY}/issues/comments/${earlier.id}`, { body })
    console.log(`Updated the changelog comment ${earlier.html_url ?? earlier.id}`)
  } else {
    const posted = await call('POST', `/repos/${env.GITHUB_REPOSITORY}/issues/${number}/comments`, {
      body,
    })
    console.log(`Posted the changelog comment ${posted.html_url ?? posted.id}`)
  }
} catch (error) {
  console.log(
    `::warning title=svc::The pull-request comment was not posted: ${String(error.message).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}`,
  )
}
