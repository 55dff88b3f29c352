/**
 * The svc project format, shared by the CLI and the hub: account handles, slugs and
 * `@account/slug` names; the root manifest `deno.json`; and how its `gen-*` imports compose with
 * the files of a project. Pure: the callers read files and word HTTP errors.
 *
 * @module
 */
export { HANDLE_PATTERN, HANDLE_RULE, handleProblem, isHandle, RESERVED_HANDLES } from './handle.js'
export { isSlug, SLUG_PATTERN, SLUG_RULE } from './slug.js'
export {
  formatScopedName,
  isScopedName,
  parseScopedName,
  SCOPED_NAME,
  scopedNameProblem,
  type ScopedName,
} from './scoped-name.js'
export { isSemverVersion } from './semver-version.js'
export {
  parseRootManifest,
  readRootManifestText,
  ROOT_MANIFEST,
  type ManifestReading,
  type RootManifest,
  type VersionRule,
} from './root-manifest.js'
export {
  classifyGeneratorSpecifier,
  parseJsrSpecifier,
  type GeneratorSpecifier,
  type SpecifierProblem,
} from './generator-specifier.js'
export {
  GENERATOR_PREFIX,
  reconcileComposition,
  type Composition,
  type CompositionProblem,
  type Generator,
} from './composition.js'
