// Parses every example of a JSON response in GitHub's REST description with the zod schema svc
// generates for it: the model's schema from @svc/gen-zod for a response that is a component
// `$ref` (what @svc/gen-fetch-client's `validate` parses it with), and printZod's expression for
// an inline or array schema, referring to the same models. Reports what passed and, for each
// failure, the operation, status, example and zod's issues.
// Usage: node bench/github-examples.js [--input FILE] [--json FILE]
//   [--input: another description (default: @octokit/openapi's api.github.com.json)]
//   [--json: also write the failures there]
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import ts from 'typescript'
import { parseApi } from '@svc/engine'
import { generate, toIdentifierName, toOperationEntry } from '@svc/engine/generate'
import { modelRefs, printZod, zodEntry } from '@svc/gen-zod'
import { parseArgs } from './lib/stats.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const INPUT = join(ROOT, 'node_modules/@octokit/openapi/generated/api.github.com.json')
/** Inside the workspace, so that the generated files resolve its zod. */
const SCRATCH = join(ROOT, 'node_modules/.cache/svc-github-examples/')
const JSON_MEDIA = /^application\/(?:[\w.-]+\+)?json(?:\s*;|$)/i

const args = parseArgs(process.argv.slice(2))
const input = args.input === undefined ? INPUT : resolve(String(args.input))

/** The JSON responses of an operation that have examples: status → schema and examples. */
function examplesOf(model, operation) {
  const found = []
  for (const [status, written] of Object.entries(operation.responses)) {
    const response =
      written.kind === 'ref' ? model.components.responses[refTail(written.$ref)] : written
    for (const [media, content] of Object.entries(response?.content ?? {})) {
      if (!JSON_MEDIA.test(media)) continue
      const examples = []
      if (content.example !== undefined) examples.push(['example', content.example])
      for (const [name, example] of Object.entries(content.examples ?? {}))
        if (example && typeof example === 'object' && 'value' in example)
          examples.push([name, example.value])
      if (examples.length > 0) found.push({ status, media, schema: content.schema, examples })
    }
  }
  return found
}

function refTail(ref) {
  return decodeURIComponent(ref.split('/').at(-1).replaceAll('~1', '/').replaceAll('~0', '~'))
}

/** `<operation>|<status>|<media>` → the schema's zod expression, by a generator of this script. */
function checksEntry(cases) {
  return toOperationEntry({
    id: 'github-examples',
    toExportPath: () => 'checks.ts',
    toName: (operation) =>
      `${toIdentifierName(operation.operationId ?? `${operation.method} ${operation.path}`, 'camel')}Checks`,
    transform({ context, subject, name, exportPath }) {
      const found = examplesOf(context.model, subject)
      if (found.length === 0) return
      const label = subject.operationId ?? `${subject.method} ${subject.path}`
      context.define({
        name,
        kind: 'value',
        exportPath,
        build: () => {
          const dependsOn = []
          const schemaName = (refName) => {
            const key = context.insertModel(zodEntry, refName)
            dependsOn.push({ name: key.identifier.name, exportPath: key.exportPath })
            return key.identifier.name
          }
          const entries = found.map(({ status, media, schema }) => {
            // A `$ref` is the model's own constant, as the fetch client's validate uses it.
            const expression =
              schema.kind === 'ref' && !schema.nullable
                ? schemaName(schema.refName)
                : printZod(schema, modelRefs(context, dependsOn))
            return `  ${JSON.stringify(`${status}|${media}`)}: ${expression},`
          })
          for (const { status, media, schema, examples } of found) {
            const model = schema.kind === 'ref' && !schema.nullable
            cases.push({ operation: label, name, status, media, model, examples })
          }
          return {
            code: `export const ${name} = {\n${entries.join('\n')}\n}`,
            dependsOn,
            imports: [{ module: 'zod', name: 'z' }],
          }
        },
      })
    },
  })
}

async function main() {
  const started = performance.now()
  const parsed = await parseApi({ text: readFileSync(input, 'utf8') })
  const cases = []
  const result = generate({
    parsed,
    generators: [zodEntry, checksEntry(cases)],
    importExtension: '.js',
  })
  for (const [id, byItem] of Object.entries(result.manifest.results))
    for (const [item, outcome] of Object.entries(byItem))
      if (outcome.status === 'error') console.log(`${id} ${item}: ${outcome.cause}`)
  const generatedMs = performance.now() - started

  mkdirSync(SCRATCH, { recursive: true })
  const folder = mkdtempSync(SCRATCH)
  let checks
  try {
    writeFileSync(join(folder, 'package.json'), '{ "type": "module" }')
    for (const [path, code] of result.files) {
      if (!path.endsWith('.ts') || path === 'types.ts') continue
      const { outputText } = ts.transpileModule(code, {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      })
      writeFileSync(join(folder, path.replace(/\.ts$/, '.js')), outputText)
    }
    checks = await import(pathToFileURL(join(folder, 'checks.js')).href)
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }

  let found = 0
  const failures = []
  for (const { operation, name, status, media, examples } of cases) {
    const schema = checks[name][`${status}|${media}`]
    for (const [example, value] of examples) {
      found++
      const parsedExample = schema.safeParse(value)
      if (parsedExample.success) continue
      failures.push({
        operation,
        status,
        media,
        example,
        issues: parsedExample.error.issues.map((issue) => ({
          path: issue.path.join('.'),
          message: issue.message,
        })),
      })
    }
  }

  const models = cases.filter((c) => c.model).length
  console.log(
    `${relative(ROOT, input)}: ${found} examples of JSON responses in ${cases.length} responses ` +
      `(${models} a model's schema, ${cases.length - models} inline or an array; ` +
      `generated and imported in ${Math.round(generatedMs)} ms)`,
  )
  console.log(`passed ${found - failures.length}, failed ${failures.length}`)
  for (const failure of failures) {
    console.log(
      `\n${failure.operation} ${failure.status} ${failure.media} (${failure.example}):` +
        failure.issues.map((issue) => `\n  ${issue.path || '(root)'}: ${issue.message}`).join(''),
    )
  }
  if (args.json !== undefined)
    writeFileSync(
      resolve(String(args.json)),
      `${JSON.stringify({ found, passed: found - failures.length, failures }, null, 2)}\n`,
    )
}

await main()
