/** Why a `gen-*` import's value names no generator. */
export type SpecifierProblem =
  /** Another scheme than `jsr:` (`npm:`, `https:` …): svc can neither bundle nor clone it. */
  | 'scheme'
  /** `jsr:` without `@scope/name`. */
  | 'jsr'
  /** A path that does not begin with `./` (`gen-zod/mod.ts`). */
  | 'bare path'
  /** A path that leaves the project, or none at all: absolute, `..`, `\`, control characters. */
  | 'unsafe path'
  /** A file at the top of the project (`./mod.ts`): a clone is a folder. */
  | 'not in a folder'

/** How a project gets one generator, read from its import's value. */
export type GeneratorSpecifier =
  | {
      readonly kind: 'imported'
      readonly specifier: string
      /** `@svc/gen-zod` */
      readonly id: string
      /** The semver range after the id; `*` when there is none. */
      readonly range: string
    }
  | {
      readonly kind: 'cloned'
      readonly specifier: string
      /** Relative to the project, normalised: `./gen-zod//mod.ts` → `gen-zod/mod.ts`. */
      readonly path: string
      /** The top-level folder holding it: the first segment of the path. */
      readonly folder: string
      /** The value ends with `/`: it names the folder `path`, not a file. */
      readonly directory: boolean
    }
  | { readonly kind: 'invalid'; readonly specifier: string; readonly problem: SpecifierProblem }

/** A `jsr:` specifier: `{ id: '@svc/gen-zod', range: '^0.1.0' }`; the range defaults to `*`. */
export function parseJsrSpecifier(specifier: string): { id: string; range: string } | undefined {
  const match = /^jsr:(@[^/@\s]+\/[^/@\s]+)(?:@(.+))?$/.exec(specifier)
  return match ? { id: match[1]!, range: match[2] ?? '*' } : undefined
}

/**
 * Imported or cloned: a `jsr:@scope/name[@range]` specifier is imported, a `./` path inside the
 * project is cloned; anything else is invalid, with the reason.
 *
 * @example
 * classifyGeneratorSpecifier('./gen-zod/mod.ts')
 * // { kind: 'cloned', specifier: './gen-zod/mod.ts', path: 'gen-zod/mod.ts', folder: 'gen-zod', directory: false }
 */
export function classifyGeneratorSpecifier(specifier: string): GeneratorSpecifier {
  const invalid = (problem: SpecifierProblem) => ({ kind: 'invalid', specifier, problem }) as const
  if (specifier.startsWith('jsr:')) {
    const jsr = parseJsrSpecifier(specifier)
    return jsr ? { kind: 'imported', specifier, ...jsr } : invalid('jsr')
  }
  if (/^[A-Za-z]:/.test(specifier) || specifier.startsWith('/') || specifier.includes('\\'))
    return invalid('unsafe path')
  if (/^[A-Za-z][A-Za-z0-9+.-]+:/.test(specifier)) return invalid('scheme')
  if (/\p{Cc}/u.test(specifier)) return invalid('unsafe path')
  if (!specifier.startsWith('./'))
    return invalid(/^\.\.(?:\/|$)/.test(specifier) ? 'unsafe path' : 'bare path')
  const segments = specifier
    .normalize('NFC')
    .split('/')
    .filter((segment) => segment !== '' && segment !== '.')
  if (segments.length === 0 || segments.includes('..')) return invalid('unsafe path')
  const directory = specifier.endsWith('/')
  if (segments.length === 1 && !directory) return invalid('not in a folder')
  return { kind: 'cloned', specifier, path: segments.join('/'), folder: segments[0]!, directory }
}
