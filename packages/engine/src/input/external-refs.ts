import { basename, dirname, extname, resolve } from 'node:path'
import { encodePointerSegment, getAtPointer, parseLocalRef } from '../refs/pointer.js'
import { decodeDocument, type DecodedDocument } from './decode-document.js'
import { DocumentError } from './document-error.js'
import type { InputLimits } from './limits.js'

/** Reads a file that a relative `$ref` names; given by the caller, so the engine does no I/O itself. */
export type ReadFile = (absolutePath: string) => string

/** Where a part of the bundled document came from, for issue positions. */
export type ContentOrigin = {
  /** Path in the bundled document where the imported content sits. */
  readonly at: readonly string[]
  readonly file: string
  /** Path of the same content inside `file`. */
  readonly pointer: readonly string[]
  readonly document: DecodedDocument
}

export type BundleResult = {
  readonly document: Record<string, unknown>
  readonly origins: readonly ContentOrigin[]
  /** Why a `$ref` (as written) could not be followed. */
  readonly failures: ReadonlyMap<string, string>
}

export type BundleOptions = {
  readonly file: string
  readonly readFile: ReadFile
  readonly limits: InputLimits
  /** Where hoisted schemas go: `components/schemas` (3.x) or `definitions` (2.0). */
  readonly schemasAt: readonly string[]
}

const MAX_FILES = 1_000
const SCHEMA_PARENTS: ReadonlySet<string> = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'schemas',
])
const SCHEMA_KEYS: ReadonlySet<string> = new Set([
  'schema',
  'items',
  'additionalProperties',
  'not',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
])
const SCHEMA_LISTS: ReadonlySet<string> = new Set(['allOf', 'oneOf', 'anyOf', 'prefixItems'])

/** Whether the text holds a `$ref` that does not start with `#` (cheap test before a full walk). */
export function mayHaveExternalRefs(text: string): boolean {
  // A string value that does not start with `#`, on the same line: a property *named* `$ref`
  // (SCIM schemas have one) is followed by `{` or a line break and costs no bundling pass.
  return /\$ref["']?[ \t]*:[ \t]*(?:["'](?!#)[^\s"']|[^\s"'#{[|>&*!,])/.test(text)
}

/**
 * Follows relative file `$ref`s (`./common.yaml#/components/schemas/Error`) from a document read
 * from `file`. Schemas are hoisted under `schemasAt` with their own name (so recursion through
 * files works); other objects are copied in place. Remote (`http:`) refs are left as written.
 */
export function bundleExternalRefs(
  root: Record<string, unknown>,
  rootDocument: DecodedDocument,
  options: BundleOptions,
): BundleResult {
  const rootFile = resolve(options.file)
  const files = new Map<string, DecodedDocument | DocumentError>([[rootFile, rootDocument]])
  const hoisted = new Map<string, string>()
  const origins: ContentOrigin[] = []
  const failures = new Map<string, string>()
  const document = structuredClone(root)
  const schemas = ensureAt(document, options.schemasAt)
  const taken = new Set(Object.keys(schemas))
  let bytes = 0

  function load(file: string): DecodedDocument | DocumentError {
    const known = files.get(file)
    if (known) return known
    if (files.size >= MAX_FILES)
      return new DocumentError('too_large', `More than ${MAX_FILES} files are referenced.`)
    let loaded: DecodedDocument | DocumentError
    try {
      const text = options.readFile(file)
      bytes += text.length
      if (bytes > options.limits.maxBytes)
        throw new DocumentError('too_large', 'The referenced files exceed the size limit.')
      loaded = decodeDocument(text, options.limits, file)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      loaded =
        error instanceof DocumentError
          ? error
          : new DocumentError(
              'unreadable',
              code === 'ENOENT' ? 'no such file' : (error as Error).message,
            )
    }
    files.set(file, loaded)
    return loaded
  }

  /** Rewrites one `$ref` found in content that came from `baseFile`; returns the value to put in its place. */
  function follow(ref: string, baseFile: string, inSchema: boolean, at: string[]): unknown {
    const hash = ref.indexOf('#')
    const filePart = hash === -1 ? ref : ref.slice(0, hash)
    const fragment = hash === -1 ? '' : ref.slice(hash)
    if (/^[a-z][a-z0-9+.-]*:/i.test(filePart) && !/^file:/i.test(filePart)) return { $ref: ref }
    const file =
      filePart === ''
        ? baseFile
        : resolve(dirname(baseFile), decodeURI(filePart.replace(/^file:\/\//i, '')))
    if (file === rootFile) return { $ref: fragment === '' ? '#' : fragment }
    const source = load(file)
    if (source instanceof DocumentError) {
      failures.set(
        ref,
        `Ref "${ref}" not found: could not read ${filePart} (${source.message.replace(/\.$/, '')})`,
      )
      return { $ref: ref }
    }
    const pointer = parseLocalRef(fragment === '' ? '#' : fragment)
    const target = pointer ? getAtPointer(source.value, pointer) : undefined
    if (!pointer || target === undefined) {
      failures.set(ref, `Ref "${ref}" not found in ${filePart || basename(file)}`)
      return { $ref: ref }
    }
    const key = `${file}#${pointer.join('/')}`
    if (!inSchema) {
      if (stack.includes(key)) {
        failures.set(ref, `Ref "${ref}" refers to itself through other files`)
        return { $ref: ref }
      }
      stack.push(key)
      origins.push({ at: [...at], file, pointer, document: source })
      const copy = importValue(target, file, at, false)
      stack.pop()
      return copy
    }
    let name = hoisted.get(key)
    if (name === undefined) {
      name = uniqueName(pointer.at(-1) ?? basename(file, extname(file)), taken)
      hoisted.set(key, name)
      const hoistAt = [...options.schemasAt, name]
      origins.push({ at: hoistAt, file, pointer, document: source })
      // Claim the slot before importing, so schemas keep the order in which they were first met.
      schemas[name] = {}
      schemas[name] = importValue(target, file, hoistAt, true)
    }
    return {
      $ref: `#/${options.schemasAt.map(encodePointerSegment).join('/')}/${encodePointerSegment(name)}`,
    }
  }

  const stack: string[] = []

  /** Copies content from `file`, following the refs inside it. */
  function importValue(value: unknown, file: string, at: string[], inSchema: boolean): unknown {
    if (Array.isArray(value)) {
      return value.map((item, index) =>
        importValue(
          item,
          file,
          [...at, String(index)],
          inSchema && SCHEMA_LISTS.has(at.at(-1) ?? ''),
        ),
      )
    }
    if (value === null || typeof value !== 'object') return value
    const record = value as Record<string, unknown>
    if (typeof record.$ref === 'string') {
      const replaced = follow(record.$ref, file, inSchema, at)
      const siblings = Object.entries(record).filter(([key]) => key !== '$ref')
      return siblings.length === 0
        ? replaced
        : { ...(replaced as object), ...Object.fromEntries(siblings) }
    }
    const copy: Record<string, unknown> = {}
    const parentKey = at.at(-1) ?? ''
    for (const key of Object.keys(record)) {
      const childInSchema =
        SCHEMA_KEYS.has(key) || SCHEMA_PARENTS.has(parentKey) || (inSchema && SCHEMA_LISTS.has(key))
      Object.defineProperty(copy, key, {
        value: importValue(record[key], file, [...at, key], childInSchema),
        enumerable: true,
        writable: true,
        configurable: true,
      })
    }
    return copy
  }

  // Walk the root document iteratively: it can be large, and only refs need rewriting.
  const pending: {
    holder: Record<string, unknown> | unknown[]
    key: string
    at: string[]
    inSchema: boolean
  }[] = []
  // Children go on the stack last-first, so refs are followed in document order.
  const push = (holder: Record<string, unknown> | unknown[], at: string[], inSchema: boolean) => {
    if (Array.isArray(holder)) {
      const listInSchema = inSchema && SCHEMA_LISTS.has(at.at(-1) ?? '')
      for (let index = holder.length - 1; index >= 0; index--) {
        pending.push({
          holder,
          key: String(index),
          at: [...at, String(index)],
          inSchema: listInSchema,
        })
      }
    } else {
      const parentKey = at.at(-1) ?? ''
      const keys = Object.keys(holder)
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!
        pending.push({
          holder,
          key,
          at: [...at, key],
          inSchema:
            SCHEMA_KEYS.has(key) ||
            SCHEMA_PARENTS.has(parentKey) ||
            (inSchema && SCHEMA_LISTS.has(key)),
        })
      }
    }
  }
  push(document, [], false)
  while (pending.length > 0) {
    const { holder, key, at, inSchema } = pending.pop()!
    const value = (holder as Record<string, unknown>)[key]
    if (value === null || typeof value !== 'object') continue
    const record = value as Record<string, unknown>
    if (typeof record.$ref === 'string' && !record.$ref.startsWith('#')) {
      const replaced = follow(record.$ref, rootFile, inSchema, at)
      const siblings = Object.entries(record).filter(([k]) => k !== '$ref')
      ;(holder as Record<string, unknown>)[key] =
        siblings.length === 0
          ? replaced
          : { ...(replaced as object), ...Object.fromEntries(siblings) }
      continue
    }
    push(record, at, inSchema)
  }
  return { document, origins, failures }
}

function ensureAt(
  document: Record<string, unknown>,
  path: readonly string[],
): Record<string, unknown> {
  let node = document
  for (const segment of path) {
    const next = node[segment]
    if (next === null || typeof next !== 'object' || Array.isArray(next)) node[segment] = {}
    node = node[segment] as Record<string, unknown>
  }
  return node
}

function uniqueName(wanted: string, taken: Set<string>): string {
  let name = wanted
  for (let n = 2; taken.has(name); n++) name = `${wanted}_${n}`
  taken.add(name)
  return name
}
