import type { GeneratorImport } from '../project/root-manifest.js'

/**
 * The text of a project's `worker.ts`: imports every generator of the root manifest, in its
 * order, and serves `svc generate`'s request with them. Each generator module exports
 * `generators`, the entries it contributes (docs/authoring-generators.md).
 */
export function workerSource(generators: readonly GeneratorImport[]): string {
  const imports = generators.map(
    (generator, index) =>
      `import { generators as g${index} } from ${JSON.stringify(generator.specifier)} // ${generator.key}`,
  )
  const list = generators.map((_, index) => `...g${index}`).join(', ')
  return [
    '// Written by `svc bundle` from deno.json. Do not edit: it is written again on every bundle.',
    "import { serveGenerateRequests } from '@svc/engine/generate'",
    ...imports,
    '',
    `serveGenerateRequests([${list}])`,
    '',
  ].join('\n')
}
