import type { GeneratorImport } from '../project/root-manifest.js'

function generatorImports(generators: readonly GeneratorImport[]) {
  return {
    lines: generators.map(
      (generator, index) =>
        `import { generators as g${index} } from ${JSON.stringify(generator.specifier)} // ${generator.key}`,
    ),
    list: generators.map((_, index) => `...g${index}`).join(', '),
  }
}

/**
 * The text of a project's `server.ts`: the stack server with every generator of the root
 * manifest, named after the stack and version it publishes as.
 */
export function serverSource(
  generators: readonly GeneratorImport[],
  identity: { name: string; version: string },
): string {
  const { lines, list } = generatorImports(generators)
  return [
    '// Written by `svc bundle --server` from deno.json. Do not edit: it is written again on every bundle.',
    "import { startStackServer } from '@svc/stack-server'",
    ...lines,
    '',
    `startStackServer({ generators: [${list}], identity: ${JSON.stringify(identity)} })`,
    '',
  ].join('\n')
}

/**
 * The text of a project's `worker.ts`: imports every generator of the root manifest, in its
 * order, and serves `svc generate`'s request with them. Each generator module exports
 * `generators`, the entries it contributes (docs/authoring-generators.md).
 */
export function workerSource(generators: readonly GeneratorImport[]): string {
  const { lines: imports, list } = generatorImports(generators)
  return [
    '// Written by `svc bundle` from deno.json. Do not edit: it is written again on every bundle.',
    "import { serveGenerateRequests } from '@svc/engine/generate'",
    ...imports,
    '',
    `serveGenerateRequests([${list}])`,
    '',
  ].join('\n')
}
