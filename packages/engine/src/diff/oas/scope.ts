import type { ComponentBucket } from '../../model/index.js'
import type { ChangeDelta } from '../changelog.js'
import type { DocumentationRuleId } from './documentation-rules.js'
import type { FixedOasRuleId, SchemaContext, SchemaKind } from './rules.js'

/** Bits of {@link Fact.mask}: facts under a readOnly property do not apply to requests, … */
export const READ_ONLY = 1
export const WRITE_ONLY = 2

/** A schema change, named by what it is where a client sends the value and where it receives it. */
export type SchemaFactRule = { readonly in: SchemaKind; readonly out: SchemaKind }

/**
 * One difference found while comparing, before it is a changelog entry: schema facts become a
 * rule only once the context that reaches them (request body, response header …) is known.
 */
export type Fact = {
  readonly rule: FixedOasRuleId | SchemaFactRule
  readonly pointer: string
  /** The property path inside the schema (`owner.login`, `items[]`), empty at its root. */
  readonly at: string
  readonly text: string
  readonly mask: number
}

/**
 * A documentation change, kept apart from the facts: it never makes the operation or component
 * that holds it "modified", and it is counted in the `documentation` section.
 */
export type Note = {
  readonly id: DocumentationRuleId
  readonly pointer: string
  readonly text: string
  readonly delta: keyof ChangeDelta
}

/** A shared component reached from here, in a context fixed by the link or inherited. */
export type Link = {
  readonly shared: Shared
  readonly context: SchemaContext | undefined
  readonly mask: number
}

/**
 * Where facts go while two parts of the documents are compared. A region is a sub-scope with a
 * context of its own (the header schemas of a response, say), labelled for messages.
 */
export class Scope {
  readonly facts: Fact[] = []
  readonly notes: Note[] = []
  readonly links: Link[] = []
  readonly regions: Scope[] = []

  constructor(
    readonly label: string,
    readonly context?: SchemaContext,
  ) {}

  region(label: string, context?: SchemaContext): Scope {
    const region = new Scope(label, context)
    this.regions.push(region)
    return region
  }

  fixed(rule: FixedOasRuleId, pointer: string, text: string): void {
    this.facts.push({ rule, pointer, at: '', text, mask: 0 })
  }

  schema(
    inKind: SchemaKind,
    outKind: SchemaKind,
    pointer: string,
    at: string,
    text: string,
    mask: number,
  ): void {
    this.facts.push({ rule: { in: inKind, out: outKind }, pointer, at, text, mask })
  }

  link(shared: Shared, context: SchemaContext | undefined, mask = 0): void {
    this.links.push({ shared, context, mask })
  }
}

/**
 * A component compared once, however many operations reach it: its changes are listed once, at
 * the component, with the operations that reach it.
 */
export class Shared extends Scope {
  state: 'fresh' | 'comparing' | 'done' = 'fresh'
  /** `${context}|${mask}` → the operations that reach this component that way. */
  readonly reached = new Map<
    string,
    { context: SchemaContext; mask: number; operations: Set<string> }
  >()

  constructor(
    readonly bucket: ComponentBucket,
    readonly oldName: string,
    readonly newName: string,
  ) {
    super(`${BUCKET_NOUNS[bucket]} \`${newName}\``)
  }

  get pointer(): string {
    return `/components/${this.bucket}/${escapePointer(this.newName)}`
  }
}

/** What a component of each bucket is called in messages. */
export const BUCKET_NOUNS: Readonly<Record<ComponentBucket, string>> = {
  schemas: 'schema',
  parameters: 'parameter',
  requestBodies: 'request body',
  responses: 'response',
  headers: 'header',
  securitySchemes: 'security scheme',
}

export function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1')
}

/** JSON with sorted keys, so values compare by content. */
export function canonical(value: unknown): string {
  if (value === undefined) return 'undefined'
  if (value === null || typeof value !== 'object') return JSON.stringify(value)
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  const record = value as Record<string, unknown>
  return `{${Object.keys(record)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`)
    .join(',')}}`
}

export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
