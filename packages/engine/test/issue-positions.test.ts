import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseApi } from '../src/index.js'

/**
 * Every issue of real documents, with its line and column, exactly as `svc check` reported it
 * before the position scan was made to stop early: a digest of the issues (paths below the
 * repository shown as `<root>`), their number and how many have a position. A change to any
 * issue, message or position changes the digest.
 */
const root = resolve(import.meta.dirname, '../../..')
const readFile = (path: string) => readFileSync(path, 'utf8')

/** Document under node_modules → [issues, issues with a position, digest]. */
const EXPECTED: Record<string, [number, number, string]> = {
  '@octokit/openapi/generated/api.github.com.json': [69, 69, '863f7929629613b5'],
  '@readme/oas-examples/2.0/json/petstore-expanded.json': [1, 1, '777601478ed07d66'],
  '@readme/oas-examples/2.0/json/petstore-with-external-docs.json': [1, 1, 'c4fe68928a3a8d9e'],
  '@readme/oas-examples/2.0/yaml/petstore-with-external-docs.yaml': [1, 1, '3599a8e395dec4e3'],
  '@readme/oas-examples/3.0/json/callbacks.json': [1, 1, 'e3e41c056a9071e4'],
  '@readme/oas-examples/3.0/json/circular-paths.json': [1, 1, '34b8429f7d42fb5b'],
  '@readme/oas-examples/3.0/json/complex-nesting.json': [10, 10, '5e054f94b5eb0b87'],
  '@readme/oas-examples/3.0/json/schema-circular.json': [1, 1, '29b90fcbe13578e2'],
  '@readme/oas-examples/3.0/json/schema-deprecated.json': [8, 8, 'cbf26de8e86dcf15'],
  '@readme/oas-examples/3.0/json/schema-enums.json': [4, 4, '70bc0b2d9756897d'],
  '@readme/oas-examples/3.0/json/schema-types.json': [19, 19, '743642d571a4295b'],
  '@readme/oas-examples/3.0/json/schema-validation.json': [8, 8, '329147cc96ed0f34'],
  '@readme/oas-examples/3.0/json/star-trek.json': [40, 40, 'a1403a892853f245'],
  '@readme/oas-examples/3.0/yaml/callbacks.yaml': [1, 1, 'd86cd24a60bd3725'],
  '@readme/oas-examples/3.0/yaml/circular-paths.yaml': [1, 1, '3ffdac0967fbcf8c'],
  '@readme/oas-examples/3.0/yaml/complex-nesting.yaml': [10, 10, '5790112f1cccdfc3'],
  '@readme/oas-examples/3.0/yaml/schema-circular.yaml': [1, 1, '3f89ccc8a9044dc0'],
  '@readme/oas-examples/3.0/yaml/schema-deprecated.yaml': [8, 8, '89f9e445a60bbc2a'],
  '@readme/oas-examples/3.0/yaml/schema-enums.yaml': [4, 4, 'ad2a2ebae4937ae8'],
  '@readme/oas-examples/3.0/yaml/schema-types.yaml': [19, 19, '860d385df989d69a'],
  '@readme/oas-examples/3.0/yaml/schema-validation.yaml': [8, 8, '54cb7af30653ab91'],
  '@readme/oas-examples/3.0/yaml/star-trek.yaml': [40, 40, 'd92e00db91d1e1fc'],
  '@readme/oas-examples/3.1/json/readme.json': [502, 502, '7fa2803f5bebc4dc'],
  '@readme/oas-examples/3.1/json/schema-types.json': [20, 20, '22fc0382b2a4ba99'],
  '@readme/oas-examples/3.1/json/schema-validation-local.json': [8, 8, '12d5596470910073'],
  '@readme/oas-examples/3.1/json/security.json': [1, 1, 'cf852fecc5d807fe'],
  '@readme/oas-examples/3.1/yaml/readme.yaml': [502, 502, 'f23cf9674b1eb7cb'],
  '@readme/oas-examples/3.1/yaml/schema-types.yaml': [20, 20, '8a8e81e633f6fd30'],
  '@readme/oas-examples/3.1/yaml/schema-validation-local.yaml': [8, 8, '921d4bddfb4ae1a7'],
  '@readme/oas-examples/3.1/yaml/security.yaml': [1, 1, '35e2901fc53d1822'],
}

describe('issue positions on real documents', () => {
  it.each(Object.entries(EXPECTED))('%s', async (name, [count, located, digest]) => {
    const path = join(root, 'node_modules', name)
    const { parseIssues } = await parseApi(
      { text: readFile(path), origin: path },
      { readFile, positions: true },
    )
    const text = JSON.stringify(parseIssues).replaceAll(root, '<root>')
    expect([
      parseIssues.length,
      parseIssues.filter((issue) => issue.line !== undefined).length,
      createHash('sha256').update(text).digest('hex').slice(0, 16),
    ]).toEqual([count, located, digest])
  })
})
