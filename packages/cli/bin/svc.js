#!/usr/bin/env node
import { readFileSync, statSync } from 'node:fs'

// The esbuild bundle of dist/ (scripts/bundle-cli.js, part of `npm run build`) starts in half the
// time of dist's hundred modules; after a `tsc -b` alone it is older than dist and is not used.
const { main } = await import(bundleIsCurrent() ? '../dist/svc-bundle.js' : '../dist/main.js')

main(process.argv.slice(2))

function bundleIsCurrent() {
  try {
    const stamp = new URL('../dist/svc-bundle.json', import.meta.url)
    const { builtFrom } = JSON.parse(readFileSync(stamp, 'utf8'))
    return builtFrom.every(
      ({ path, mtimeMs }) => statSync(new URL(path, stamp)).mtimeMs === mtimeMs,
    )
  } catch {
    return false
  }
}
