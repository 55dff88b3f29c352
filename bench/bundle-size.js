// What one call of GitHub's generated client costs in a bundle: generates types + zod + client
// with `validate` on, then bundles with esbuild (`--bundle --minify --format=esm`) an entry that
// imports and calls one validated operation, and one that imports a model type only. zod is
// bundled in one row and external in the other, so the schemas' own share shows.
// Usage: node bench/bundle-size.js [operationFunction]   (default: reposGet)
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { parseApi, resolveRef } from '@svc/engine'
import { generate } from '@svc/engine/generate'
import { typescriptEntry } from '@svc/gen-typescript'
import { zodEntry } from '@svc/gen-zod'
import { fetchClientEntry } from '@svc/gen-fetch-client'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const INPUT = join(ROOT, 'node_modules/@octokit/openapi/generated/api.github.com.json')
const OUT = join(ROOT, 'bench/.cache/bundle-size')
const operation = process.argv[2] ?? 'reposGet'

const parsed = await parseApi({ text: readFileSync(INPUT, 'utf8') })
const { files } = generate({
  parsed,
  generators: [typescriptEntry, zodEntry, fetchClientEntry],
  settings: { enrichments: { '@svc/gen-fetch-client': { _generator: { validate: true } } } },
})
rmSync(OUT, { recursive: true, force: true })
mkdirSync(OUT, { recursive: true })
for (const [path, content] of files) writeFileSync(join(OUT, path), content)
const entries = {
  'one validated call': `import { ${operation} } from './client.ts'\nexport const run = (args: Parameters<typeof ${operation}>[0]) => ${operation}(args)\n`,
  'types only': `import type { FullRepository } from './types.ts'\nexport const id = (repository: FullRepository) => repository.id\n`,
}
// Coverage: the 2xx responses whose preferred content is JSON with a schema, against the 2xx
// entries of the functions' `validate` descriptors; and the bodies checked before sending.
const JSON_TYPE = /[/+]json\b/i
let documented = 0
for (const operation of parsed.model.operations) {
  if (operation.method === 'head') continue
  for (const [status, response] of Object.entries(operation.responses)) {
    const resolved =
      response.kind === 'ref' ? resolveRef(parsed.model, response.$ref, 'responses') : response
    const types = Object.keys(resolved.content)
    const json = types.find((type) => JSON_TYPE.test(type) && !type.includes('*'))
    if (/^2(\d\d|XX)$/i.test(status) && !['204', '205', '304'].includes(status) && json)
      if (resolved.content[json].schema.kind !== 'unknown') documented++
  }
}
const client = files.get('client.ts')
const validated = [...client.matchAll(/validate: \{([^}]*)\}/g)]
  .flatMap((match) => match[1].split(','))
  .filter((entry) => /^\s*'?2(\d\d|XX)'?: \w+/.test(entry) && !/: null/.test(entry)).length
const bodies = [...client.matchAll(/validateBody: /g)].length
console.log(
  `2xx JSON responses with a schema: ${documented}, validated: ${validated}; bodies checked: ${bodies}`,
)
const kib = (bytes) => (bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KiB`)
console.log(
  `zod.ts ${kib(files.get('zod.ts').length)}, client.ts ${kib(files.get('client.ts').length)}`,
)
for (const [label, source] of Object.entries(entries)) {
  const entry = join(OUT, `entry-${label.replace(/\W+/g, '-')}.ts`)
  writeFileSync(entry, source)
  for (const external of [true, false]) {
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      minify: true,
      format: 'esm',
      write: false,
      logLevel: 'silent',
      ...(external && { external: ['zod'] }),
    })
    const size = result.outputFiles[0].contents.length
    console.log(`${label}, zod ${external ? 'external' : 'bundled'}: ${kib(size)}`)
  }
}
