#!/usr/bin/env node
// `npm run lint`: prettier's check and scripts/check.js side by side. Each is mostly one core's
// work and CI has two, so together they take about the time of the longer one. Each one's output
// is printed whole once it ends, so the two never interleave.
import { spawn } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const prettier = join(root, 'node_modules', 'prettier', 'bin', 'prettier.cjs')

/** Runs `node …args` in the root and answers its exit code and everything it printed. */
function run(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    const chunks = []
    child.stdout.on('data', (chunk) => chunks.push(chunk))
    child.stderr.on('data', (chunk) => chunks.push(chunk))
    child.on('error', (error) => resolve({ code: 1, output: `${error.message}\n` }))
    child.on('close', (code, signal) =>
      resolve({ code: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks).toString('utf8') }),
    )
  })
}

const results = await Promise.all([
  run([prettier, '--check', '.']),
  run([join(root, 'scripts', 'check.js')]),
])
for (const { output } of results) process.stdout.write(output)
process.exitCode = results.some(({ code }) => code !== 0) ? 1 : 0
