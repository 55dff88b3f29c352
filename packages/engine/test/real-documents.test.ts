import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseApi, type ParseIssue } from '../src/index.js'

/**
 * Real descriptions nobody here wrote. The expected counts were checked by hand: every issue of
 * every listed document was read against the document (see the comments), and the rest of
 * @readme/oas-examples parses without any issue.
 */
const root = resolve(import.meta.dirname, '../../..')
const readFile = (path: string) => readFileSync(path, 'utf8')

function counts(issues: readonly ParseIssue[]): Record<string, number> {
  const byType: Record<string, number> = {}
  for (const issue of issues)
    byType[`${issue.type}:${issue.level}`] = (byType[`${issue.type}:${issue.level}`] ?? 0) + 1
  return byType
}

async function parseFile(path: string) {
  return parseApi({ text: readFile(path), origin: path }, { readFile })
}

/*
 * @readme/oas-examples 8.2.2. What the issues are:
 * - MISSING_OBJECT_TYPE: schemas with properties and no type (an allOf member of Pet in the 2.0
 *   petstores, form bodies in star-trek, the "implicit object" quirks).
 * - UNEXPECTED_PROPERTY in 3.0: description/title/deprecated written beside $ref (ignored in 3.0);
 *   in 3.1: `nullable`, which is not a 3.1 keyword (readme.json uses it 498 times).
 * - INVALID_EXAMPLE / INVALID_DEFAULT: strings given for integer and number schemas
 *   (schema-validation), an example outside its enum (schema-enums), `null` defaults on
 *   non-nullable schemas (schema-types), a string example for an object (schema-circular).
 * - INVALID_ENUM: `enum: ["", 0, 1, 2]` on a number schema (schema-enums).
 * - INVALID_FORMAT: int8, uint8, int16, uint16, uint32, uint64 (schema-types).
 * - INVALID_OPERATION: the deliberately incompatible allOf (string with integer) in schema-types;
 *   the property it is on is `never` and its operation is kept, so the second MISSING_STRING_TYPE
 *   there is the `compatible` property beside it, which parses now.
 * - INVALID_SECURITY_SCHEME: a mutualTLS scheme (SPEC §7.4 admits http, apiKey, oauth2, openIdConnect).
 */
const EXAMPLES: Record<string, Record<string, number>> = {
  '2.0/json/petstore-expanded.json': { 'MISSING_OBJECT_TYPE:debug': 1 },
  '2.0/json/petstore-with-external-docs.json': { 'MISSING_OBJECT_TYPE:debug': 1 },
  '2.0/yaml/petstore-with-external-docs.yaml': { 'MISSING_OBJECT_TYPE:debug': 1 },
  '3.0/json/callbacks.json': { 'MISSING_OBJECT_TYPE:debug': 1 },
  '3.0/json/circular-paths.json': { 'MISSING_OBJECT_TYPE:debug': 1 },
  '3.0/json/complex-nesting.json': { 'UNEXPECTED_PROPERTY:warning': 10 },
  '3.0/json/schema-circular.json': { 'INVALID_EXAMPLE:warning': 1 },
  '3.0/json/schema-deprecated.json': { 'UNEXPECTED_PROPERTY:warning': 8 },
  '3.0/json/schema-enums.json': { 'INVALID_ENUM:warning': 2, 'INVALID_EXAMPLE:warning': 2 },
  '3.0/json/schema-types.json': {
    'INVALID_DEFAULT:warning': 4,
    'INVALID_FORMAT:debug': 6,
    'INVALID_OPERATION:error': 3,
    'INVALID_SCHEMA:warning': 1,
    'MISSING_ARRAY_TYPE:warning': 1,
    'MISSING_OBJECT_TYPE:debug': 2,
    'MISSING_STRING_TYPE:warning': 2,
  },
  '3.0/json/schema-validation.json': { 'INVALID_DEFAULT:warning': 4, 'INVALID_EXAMPLE:warning': 4 },
  '3.0/json/star-trek.json': { 'MISSING_OBJECT_TYPE:debug': 40 },
  '3.0/yaml/callbacks.yaml': { 'MISSING_OBJECT_TYPE:debug': 1 },
  '3.0/yaml/circular-paths.yaml': { 'MISSING_OBJECT_TYPE:debug': 1 },
  '3.0/yaml/complex-nesting.yaml': { 'UNEXPECTED_PROPERTY:warning': 10 },
  '3.0/yaml/schema-circular.yaml': { 'INVALID_EXAMPLE:warning': 1 },
  '3.0/yaml/schema-deprecated.yaml': { 'UNEXPECTED_PROPERTY:warning': 8 },
  '3.0/yaml/schema-enums.yaml': { 'INVALID_ENUM:warning': 2, 'INVALID_EXAMPLE:warning': 2 },
  '3.0/yaml/schema-types.yaml': {
    'INVALID_DEFAULT:warning': 4,
    'INVALID_FORMAT:debug': 6,
    'INVALID_OPERATION:error': 3,
    'INVALID_SCHEMA:warning': 1,
    'MISSING_ARRAY_TYPE:warning': 1,
    'MISSING_OBJECT_TYPE:debug': 2,
    'MISSING_STRING_TYPE:warning': 2,
  },
  '3.0/yaml/schema-validation.yaml': { 'INVALID_DEFAULT:warning': 4, 'INVALID_EXAMPLE:warning': 4 },
  '3.0/yaml/star-trek.yaml': { 'MISSING_OBJECT_TYPE:debug': 40 },
  '3.1/json/readme.json': {
    'INVALID_DEFAULT:warning': 1,
    'MISSING_STRING_TYPE:warning': 3,
    'UNEXPECTED_PROPERTY:warning': 498,
  },
  '3.1/json/schema-types.json': {
    'INVALID_DEFAULT:warning': 4,
    'INVALID_FORMAT:debug': 6,
    'INVALID_OPERATION:error': 3,
    'INVALID_SCHEMA:warning': 1,
    'MISSING_ARRAY_TYPE:warning': 1,
    'MISSING_STRING_TYPE:warning': 2,
    'UNEXPECTED_PROPERTY:warning': 3,
  },
  '3.1/json/schema-validation-local.json': {
    'INVALID_DEFAULT:warning': 4,
    'INVALID_EXAMPLE:warning': 4,
  },
  '3.1/json/security.json': { 'INVALID_SECURITY_SCHEME:error': 1 },
  '3.1/yaml/readme.yaml': {
    'INVALID_DEFAULT:warning': 1,
    'MISSING_STRING_TYPE:warning': 3,
    'UNEXPECTED_PROPERTY:warning': 498,
  },
  '3.1/yaml/schema-types.yaml': {
    'INVALID_DEFAULT:warning': 4,
    'INVALID_FORMAT:debug': 6,
    'INVALID_OPERATION:error': 3,
    'INVALID_SCHEMA:warning': 1,
    'MISSING_ARRAY_TYPE:warning': 1,
    'MISSING_STRING_TYPE:warning': 2,
    'UNEXPECTED_PROPERTY:warning': 3,
  },
  '3.1/yaml/schema-validation-local.yaml': {
    'INVALID_DEFAULT:warning': 4,
    'INVALID_EXAMPLE:warning': 4,
  },
  '3.1/yaml/security.yaml': { 'INVALID_SECURITY_SCHEME:error': 1 },
}

describe('@readme/oas-examples: every example across 2.0, 3.0 and 3.1', () => {
  const base = join(root, 'node_modules/@readme/oas-examples')
  const files = ['2.0', '3.0', '3.1'].flatMap((version) =>
    ['json', 'yaml'].flatMap((format) =>
      readdirSync(join(base, version, format), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && /\.(json|ya?ml)$/.test(entry.name))
        .map((entry) => join(entry.parentPath, entry.name).slice(base.length + 1)),
    ),
  )

  it('finds the whole set', () => {
    expect(files.length).toBe(129)
  })

  it.each(files)('%s parses with the issues checked by hand', async (file) => {
    const { parseIssues, model } = await parseFile(join(base, file))
    expect(counts(parseIssues)).toEqual(EXAMPLES[file] ?? {})
    expect(model.protocol).toBe('oas')
  })
})

describe('GitHub REST descriptions (@octokit/openapi 23.0.2)', () => {
  /*
   * api.github.com.json, checked by hand: 42 INVALID_NULLABLE are `{ nullable: true }` schemas
   * with no type (webhooks_answer.parent_id …); 20 INVALID_EXAMPLE are real mismatches (array
   * examples on string items in api-overview.domains, `20.04` for a string display_name,
   * `"\"git\""` outside its enum, "1367712000" for an integer in contributor-activity …);
   * 3 MISSING_STRING_TYPE are string-only enums without type; 3 MISSING_OBJECT_TYPE are
   * properties without type; 1 INVALID_FORMAT is `format: timestamp` on an integer header.
   * GHES and GHEC share the same patterns. The dereferenced copy repeats them wherever the
   * inlined schemas are used by an operation (the /meta domains, the hosted-runner images …).
   */
  const generated = join(root, 'node_modules/@octokit/openapi/generated')
  it.each([
    [
      'api.github.com.json',
      1223,
      969,
      {
        'INVALID_NULLABLE:warning': 42,
        'INVALID_EXAMPLE:warning': 20,
        'MISSING_STRING_TYPE:warning': 3,
        'MISSING_OBJECT_TYPE:debug': 3,
        'INVALID_FORMAT:debug': 1,
      },
    ],
    [
      'ghec.json',
      1471,
      1083,
      {
        'INVALID_NULLABLE:warning': 42,
        'INVALID_EXAMPLE:warning': 21,
        'MISSING_STRING_TYPE:warning': 3,
        'MISSING_OBJECT_TYPE:debug': 5,
        'INVALID_FORMAT:debug': 1,
      },
    ],
    [
      'ghes-3.17.json',
      966,
      876,
      {
        'INVALID_NULLABLE:warning': 39,
        'INVALID_EXAMPLE:warning': 16,
        'MISSING_STRING_TYPE:warning': 3,
        'MISSING_OBJECT_TYPE:debug': 2,
        'INVALID_FORMAT:debug': 1,
      },
    ],
    [
      'ghes-3.18.json',
      980,
      881,
      {
        'INVALID_NULLABLE:warning': 39,
        'INVALID_EXAMPLE:warning': 17,
        'MISSING_STRING_TYPE:warning': 3,
        'MISSING_OBJECT_TYPE:debug': 2,
        'INVALID_FORMAT:debug': 1,
      },
    ],
    [
      'ghes-3.19.json',
      1039,
      906,
      {
        'INVALID_NULLABLE:warning': 39,
        'INVALID_EXAMPLE:warning': 17,
        'MISSING_STRING_TYPE:warning': 3,
        'MISSING_OBJECT_TYPE:debug': 2,
        'INVALID_FORMAT:debug': 1,
      },
    ],
    [
      'api.github.com.deref.json',
      1223,
      0,
      {
        'INVALID_NULLABLE:warning': 6,
        'INVALID_EXAMPLE:warning': 34,
        'MISSING_STRING_TYPE:warning': 4,
        'MISSING_OBJECT_TYPE:debug': 26,
        'INVALID_FORMAT:debug': 1,
      },
    ],
  ] as const)('%s: %i operations, %i schemas', async (file, operations, schemas, expected) => {
    const { model, parseIssues } = await parseFile(join(generated, file))
    expect(model.operations).toHaveLength(operations)
    expect(Object.keys(model.components.schemas)).toHaveLength(schemas)
    expect(counts(parseIssues)).toEqual(expected)
    expect(parseIssues.some((issue) => issue.level === 'error')).toBe(false)
  })
})
