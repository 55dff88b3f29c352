import { isStackOverflow } from '../input/document-error.js'
import { formatLocation, OAS_ISSUES, type IssueKind, type IssueLog } from '../issues/index.js'
import type { ComponentBucket } from '../model/operation.js'
import type { Schema } from '../model/schema.js'
import type { SchemaFields } from './schema/schema-fields.js'
import type { SchemaParser } from './schema/schema-parser.js'
import { AllOfCycleFailure, DependencyFailure, ParseFailure } from './failures.js'
import { knownKeys, type Dialect, type ObjectKind } from './keys.js'

/** A `$ref` met while parsing a unit, checked once every unit is parsed. */
export type RefUse = {
  readonly ref: string
  readonly bucket: ComponentBucket
  /** Where the `$ref` is written. */
  readonly path: readonly string[]
}

/** What became of one isolation unit (a component, a path × method, a response entry). */
export type Outcome<T> =
  | { readonly ok: true; readonly value: T; readonly refs: readonly RefUse[] }
  | {
      readonly ok: false
      readonly reason: string
      /** Failed because of an unusable dependency: its consumers are not pruned in turn (one hop). */
      readonly pruned: boolean
      readonly cycle?: readonly string[]
    }

export type RawObject = Record<string, unknown>

export function isObject(value: unknown): value is RawObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object') return 'an object'
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value)}`
  return `${typeof value} ${String(value)}`
}

/**
 * The state of one OpenAPI parse: the raw document, the dialect, the issue log, and the trail of
 * path segments that becomes every issue's location. Units run through {@link runUnit}, which
 * isolates their failures and records the refs they use.
 */
export class OasContext {
  readonly dialect: Dialect
  readonly document: RawObject
  readonly issues: IssueLog
  /** Path segments from the document root to the node being parsed. */
  trail: string[] = []
  #refs: RefUse[] = []
  /** The running unit: how long its path is in {@link trail}, and what its failure is logged as. */
  #unit: { readonly length: number; readonly failKind: IssueKind } | undefined
  /** Schema components whose unit is running, innermost last (for allOf cycles). */
  readonly activeSchemas: string[] = []
  /** Every schema component parsed so far, parsed once, on first need. */
  readonly schemaOutcomes = new Map<string, Outcome<Schema>>()
  /** Non-component `$ref` pointers being inlined (for recursion through them). */
  readonly inlining = new Set<string>()
  /**
   * Keyword records for the schemas being parsed, one per nesting level and reused: a large
   * document has tens of thousands of schemas, and a fresh record for each is most of the garbage.
   */
  readonly fieldsPool: SchemaFields[] = []
  /** How many of {@link fieldsPool} are in use. */
  fieldsDepth = 0
  /** Shared nodes for plain leaves and bare refs: a third of a large model is `{ type: string }`. */
  readonly #shared = new Map<string, object>()
  /** `in` and `name` of parameters reached through refs, by ref: operations merge them by those. */
  readonly parameterKeys = new Map<string, string>()
  /** Parses the schemas nested in the one being built. */
  readonly schemas: SchemaParser

  constructor(document: RawObject, dialect: Dialect, issues: IssueLog, schemas: SchemaParser) {
    this.schemas = schemas
    this.document = document
    this.dialect = dialect
    this.issues = issues
  }

  /**
   * One frozen node per distinct plain leaf (`{ kind: 'string', format: 'uri', nullable: false }`)
   * or bare ref: nodes are immutable, so sharing them is invisible except in memory and time.
   */
  shared<N extends object>(key: string, make: () => N): N {
    let node = this.#shared.get(key)
    if (node === undefined) this.#shared.set(key, (node = Object.freeze(make())))
    return node as N
  }

  push(segment: string): void {
    this.trail.push(segment)
  }

  pop(): void {
    this.trail.pop()
  }

  /** Logs an issue at the current trail, optionally descended by `segments`. */
  report(kind: IssueKind, message: string, ...segments: string[]): void {
    this.issues.add(
      kind,
      segments.length === 0 ? this.trail : [...this.trail, ...segments],
      message,
    )
  }

  /** The current location as written in messages. */
  get location(): string {
    return formatLocation(this.trail)
  }

  /** Records a `$ref` the current unit depends on. */
  useRef(ref: string, bucket: ComponentBucket, path: readonly string[] = this.trail): void {
    this.#refs.push({ ref, bucket, path: [...path] })
  }

  /** Records refs a merged component carries into the current unit. */
  inheritRefs(refs: readonly RefUse[]): void {
    for (const use of refs) this.#refs.push(use)
  }

  /**
   * Reports every key of `value` that the object kind does not define (`x-` extensions aside) as
   * UNEXPECTED_PROPERTY at `<trail>:<key>`, and returns the extensions found.
   */
  checkKeys(value: RawObject, kind: ObjectKind): Record<string, unknown> | undefined {
    const known = knownKeys(this.dialect, kind)
    let extensions: Record<string, unknown> | undefined
    for (const key in value) {
      if (known.has(key)) continue
      if (key.startsWith('x-')) {
        ;(extensions ??= {})[key] = value[key]
        continue
      }
      this.unexpected(key)
    }
    return extensions
  }

  unexpected(key: string): void {
    this.report(
      OAS_ISSUES.unexpectedProperty,
      `Unexpected property '${key}' at ${this.location}.`,
      key,
    )
  }

  /**
   * Parses one isolation unit at `path`. A failure is logged as `failKind` (or as
   * INVALID_DEPENDENCY_REF when an allOf merge needed an unusable component) and never escapes.
   */
  runUnit<T>(path: string[], failKind: IssueKind, parse: () => T): Outcome<T> {
    const savedTrail = this.trail
    const savedRefs = this.#refs
    const savedDepth = this.fieldsDepth
    const savedUnit = this.#unit
    const length = path.length
    this.#unit = { length, failKind }
    // The unit's trail grows and shrinks on `path` itself; it is cut back to its length at the end.
    this.trail = path
    this.#refs = []
    // A unit can start inside another's schema (an allOf needing a component): keep clear of its records.
    this.fieldsDepth = savedDepth + 1
    try {
      const value = parse()
      return { ok: true, value, refs: this.#refs }
    } catch (error) {
      path.length = length
      return this.#fail(path, failKind, error)
    } finally {
      path.length = length
      this.trail = savedTrail
      this.#refs = savedRefs
      this.fieldsDepth = savedDepth
      this.#unit = savedUnit
    }
  }

  /**
   * Logs `error` exactly as a failure of the running unit would be logged (same type, level,
   * location and message) without failing the unit: the caller replaces only the part that
   * failed, so the rest of the unit is still parsed and generated.
   */
  failLocally(error: ParseFailure): void {
    const unit = this.#unit
    if (unit === undefined) throw error
    this.#log(this.trail.slice(0, unit.length), unit.failKind, error)
  }

  #fail(path: readonly string[], failKind: IssueKind, error: unknown): Outcome<never> {
    if (error instanceof DependencyFailure) {
      this.issues.add(
        OAS_ISSUES.invalidDependencyRef,
        error.at,
        `${error.reason}; dropped ${formatLocation(path)}.`,
        error.reason,
      )
      return { ok: false, reason: error.reason, pruned: true }
    }
    const reason = this.#log(path, failKind, error)
    const cycle = error instanceof AllOfCycleFailure ? error.cycle : undefined
    return cycle
      ? { ok: false, reason, pruned: false, cycle }
      : { ok: false, reason, pruned: false }
  }

  #log(path: readonly string[], failKind: IssueKind, error: unknown): string {
    const reason = failureReason(error)
    const at = error instanceof ParseFailure && error.at ? error.at : undefined
    const where = at && at.length > path.length ? ` (at ${formatLocation(at)})` : ''
    this.issues.add(failKind, path, `${reason}${where}.`, reason)
    return reason
  }

  /** Throws a failure for the current unit, remembering where inside it things went wrong. */
  fail(message: string): never {
    throw new ParseFailure(message, [...this.trail])
  }
}

function failureReason(error: unknown): string {
  if (isStackOverflow(error)) return 'Nested too deeply to parse'
  if (error instanceof Error) return error.message.replace(/\.$/, '')
  return String(error)
}
