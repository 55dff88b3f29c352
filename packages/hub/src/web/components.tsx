import type { Child } from 'hono/jsx'
import { CSRF_FIELD } from './session/csrf-field.js'

export function CsrfField({ token }: { token: string }) {
  return <input type="hidden" name={CSRF_FIELD} value={token} />
}

type FormProps = {
  action: string
  csrfToken: string
  class?: string
  /** multipart for file uploads. */
  upload?: boolean
  children?: Child
}

/** A POST form that carries the page's CSRF token. */
export function Form(props: FormProps) {
  return (
    <form
      method="post"
      action={props.action}
      class={props.class ?? 'stack'}
      {...(props.upload ? { enctype: 'multipart/form-data' } : {})}
    >
      <CsrfField token={props.csrfToken} />
      {props.children}
    </form>
  )
}

/** A one-button form, for actions such as delete, retry or rotate. */
export function ActionButton(props: {
  action: string
  csrfToken: string
  label: string
  danger?: boolean
  primary?: boolean
  fields?: Record<string, string>
}) {
  return (
    <Form action={props.action} csrfToken={props.csrfToken} class="inline">
      {Object.entries(props.fields ?? {}).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      <button type="submit" class={props.danger ? 'danger' : props.primary ? 'primary' : undefined}>
        {props.label}
      </button>
    </Form>
  )
}

type FieldProps = {
  name: string
  label: string
  type?: 'text' | 'password' | 'url' | 'number' | 'datetime-local' | 'file'
  value?: string
  hint?: string
  error?: string
  required?: boolean
  autocomplete?: string
  placeholder?: string
  accept?: string
}

/** A labelled input with its hint and its error (from a refused post). */
export function Field(props: FieldProps) {
  const id = `f-${props.name}`
  return (
    <div>
      <label for={id}>{props.label}</label>
      {props.hint ? (
        <div class="hint" id={`${id}-hint`}>
          {props.hint}
        </div>
      ) : null}
      <input
        id={id}
        {...(props.hint ? { 'aria-describedby': `${id}-hint` } : {})}
        name={props.name}
        type={props.type ?? 'text'}
        {...(props.value !== undefined && props.type !== 'password' && props.type !== 'file'
          ? { value: props.value }
          : {})}
        {...(props.required ? { required: true } : {})}
        {...(props.autocomplete ? { autocomplete: props.autocomplete } : {})}
        {...(props.placeholder ? { placeholder: props.placeholder } : {})}
        {...(props.accept ? { accept: props.accept } : {})}
        {...(props.error ? { 'aria-invalid': 'true' } : {})}
      />
      {props.error ? <div class="field-error">{props.error}</div> : null}
    </div>
  )
}

export function Select(props: {
  name: string
  label: string
  options: readonly (string | { value: string; label: string })[]
  value?: string
  hint?: string
  error?: string
}) {
  const id = `f-${props.name}`
  return (
    <div>
      <label for={id}>{props.label}</label>
      {props.hint ? (
        <div class="hint" id={`${id}-hint`}>
          {props.hint}
        </div>
      ) : null}
      <select
        id={id}
        name={props.name}
        {...(props.hint ? { 'aria-describedby': `${id}-hint` } : {})}
      >
        {props.options.map((option) => {
          const { value, label } =
            typeof option === 'string' ? { value: option, label: option } : option
          return (
            <option value={value} {...(value === props.value ? { selected: true } : {})}>
              {label}
            </option>
          )
        })}
      </select>
      {props.error ? <div class="field-error">{props.error}</div> : null}
    </div>
  )
}

/** The message of a refused form, above its fields. */
export function FormError({ message }: { message: string | undefined }) {
  return message ? (
    <div class="flash error" role="alert">
      {message}
    </div>
  ) : null
}

export function Badge({ kind, children }: { kind?: string; children?: Child }) {
  return <span class={`badge ${kind ?? ''}`}>{children}</span>
}

/** A time as the reader's eye wants it (UTC, to the minute), with the exact instant on hover. */
export function Time({ at }: { at: string | null | undefined }) {
  if (!at) return <span class="muted">—</span>
  return (
    <time datetime={at} title={at}>
      {at.slice(0, 16).replace('T', ' ')} UTC
    </time>
  )
}

/**
 * A table that scrolls sideways inside its own box when it is wider than the page (a phone), so
 * the page itself never does.
 */
export function Table(props: { testid?: string; class?: string; children?: Child }) {
  return (
    <div class="table-scroll">
      <table
        {...(props.testid ? { 'data-testid': props.testid } : {})}
        {...(props.class ? { class: props.class } : {})}
      >
        {props.children}
      </table>
    </div>
  )
}

/** `1 run`, `3 runs`; `irregular` for a plural that is not the word and an s. */
export function plural(n: number, word: string, irregular?: string): string {
  return `${n} ${n === 1 ? word : (irregular ?? `${word}s`)}`
}

export function Empty({ children }: { children?: Child }) {
  return <div class="empty">{children}</div>
}

/** The page's title row: the heading and its lead on the left, its actions on the right. */
export function PageHead(props: { title: Child; lead?: Child; actions?: Child }) {
  return (
    <div class="head">
      <div>
        <h1>{props.title}</h1>
        {props.lead ? <p class="lead">{props.lead}</p> : null}
      </div>
      {props.actions ? <div class="row">{props.actions}</div> : null}
    </div>
  )
}

/** Tabs under a page head; `current` is the href of the open one. */
export function Tabs(props: { tabs: readonly { href: string; label: string }[]; current: string }) {
  return (
    <nav class="tabs">
      {props.tabs.map((tab) => (
        <a href={tab.href} {...(tab.href === props.current ? { 'aria-current': 'page' } : {})}>
          {tab.label}
        </a>
      ))}
    </nav>
  )
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`
  return `${(bytes / 1024 / 1024).toFixed(2)} MiB`
}

/**
 * Where a long identifier may break: after `/`, `.`, `:`, `_`, `,` and a JSON pointer's `~1` (a
 * hyphen breaks already), and between the humps of a long camelCase word.
 */
const BREAK_AFTER = /(?<=[/.:_,]|~1)(?=.)/
const HUMP = /(?<=[a-z])(?=[A-Z])/
const LONG_WORD = 16

/** The text with a `<wbr>` at each place of {@link BREAK_AFTER}, and at humps of long words. */
function breakable(text: string) {
  const pieces = text
    .split(BREAK_AFTER)
    .flatMap((piece) => (piece.length > LONG_WORD ? piece.split(HUMP) : [piece]))
  return pieces.map((piece, i) => (
    <>
      {i > 0 ? <wbr /> : null}
      {piece}
    </>
  ))
}

/**
 * An identifier (a rule id, a location, a path) that wraps only at its separators, never
 * mid-word: `<wbr>` after each, in an element styled `word-break: normal`; `code` for an inline
 * code span.
 */
export function Ident({ text, code }: { text: string; code?: boolean }) {
  return code ? (
    <code class="ident">{breakable(text)}</code>
  ) : (
    <span class="ident">{breakable(text)}</span>
  )
}

/**
 * A message whose `backticked` parts are code: each becomes a `<code>` span that wraps like an
 * identifier; all text stays text (escaped), whatever it holds.
 */
export function Prose({ text }: { text: string }) {
  // Split on a capture group: the odd items are what stood between backticks.
  return (
    <>
      {text
        .split(/`([^`\n]+)`/)
        .map((part, i) => (i % 2 === 1 ? <Ident text={part} code /> : part))}
    </>
  )
}
