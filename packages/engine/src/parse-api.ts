import { isAbsolute } from 'node:path'
import { convertSwagger } from './convert/convert-swagger.js'
import { swaggerPath } from './convert/swagger-paths.js'
import { decodeDocument, looksLikeJson, type DecodedDocument } from './input/decode-document.js'
import { detectTextKind, type Protocol } from './input/detect-protocol.js'
import { DocumentError, isStackOverflow } from './input/document-error.js'
import {
  bundleExternalRefs,
  mayHaveExternalRefs,
  type ContentOrigin,
  type ReadFile,
} from './input/external-refs.js'
import { attachPositions } from './input/issue-positions.js'
import { DEFAULT_LIMITS, type InputLimits } from './input/limits.js'
import { loadYaml } from './input/yaml-module.js'
import { IssueLog, type ParseIssue } from './issues/index.js'
import type { ApiModel } from './model/api-model.js'
import {
  reportMissingResponses,
  swaggerOperationsWithoutResponses,
} from './oas/missing-responses.js'
import { parseOas } from './oas/parse-oas.js'

/** JSON larger than this gets issue positions only on request: finding them costs a scan of the text. */
export const JSON_POSITIONS_MAX_BYTES = 4 * 1024 * 1024

/** An API description to parse. */
export type ApiSource = {
  /** The document: JSON, YAML or GraphQL SDL. */
  readonly text: string
  /** Absolute path of the file it was read from (enables relative `$ref`s), or a URL, for messages. */
  readonly origin?: string
}

export type ParseApiOptions = {
  /** Skip detection: `oas` for JSON/YAML OpenAPI, `gql` for SDL. */
  readonly protocol?: Protocol
  /** Reads files named by relative `$ref`s; without it they are reported as not found. */
  readonly readFile?: ReadFile
  readonly limits?: Partial<InputLimits>
  /**
   * Attach `line`/`column` to issues. `auto` (the default) does so for YAML, whose positions come
   * with the parse, and for JSON up to {@link JSON_POSITIONS_MAX_BYTES}; larger JSON needs a
   * second scan of the text, paid only when asked for with `true`.
   */
  readonly positions?: boolean | 'auto'
}

/** How the source was read. */
export type SourceInfo = {
  readonly protocol: Protocol
  readonly format: 'json' | 'yaml' | 'graphql'
  /** `2.0`, `3.0.3`, `3.1.0` … for OpenAPI; `sdl` for GraphQL. */
  readonly version: string
}

export type ParseApiResult = {
  readonly model: ApiModel
  /** Always present; empty when the document has no issues. */
  readonly parseIssues: readonly ParseIssue[]
  readonly source: SourceInfo
}

/**
 * Parses an OpenAPI 2.0 / 3.0 / 3.1 (JSON or YAML) or GraphQL SDL document into the model, with
 * every problem as a typed parse issue. Throws {@link DocumentError} only when the text cannot be
 * read as an API description at all.
 *
 * @example
 * const { model, parseIssues } = await parseApi({ text: await readFile('openapi.yaml', 'utf8') })
 */
export async function parseApi(
  source: ApiSource,
  options: ParseApiOptions = {},
): Promise<ParseApiResult> {
  const limits: InputLimits = { ...DEFAULT_LIMITS, ...options.limits }
  const file = source.origin
  checkSize(source.text, limits)
  const kind =
    options.protocol === 'gql'
      ? 'sdl'
      : options.protocol === 'oas'
        ? 'structured'
        : detectTextKind(source.text)
  try {
    if (kind === 'sdl') {
      // graphql-js is loaded only for SDL input.
      const { parseGraphql } = await import('./gql/parse-graphql.js')
      return parseGraphql(source.text)
    }
    return await parseOpenApi(source, options, limits)
  } catch (error) {
    if (isStackOverflow(error)) {
      throw new DocumentError(
        'too_deep',
        'The document is nested too deeply to read.',
        file ? { file, cause: error } : { cause: error },
      )
    }
    throw error
  }
}

/** Refuses a text over `limits.maxBytes` before anything reads it. */
export function checkSize(text: string, limits: InputLimits): void {
  // Most documents are far below the limit; only count bytes when characters alone could exceed it.
  if (text.length * 3 <= limits.maxBytes) return
  const bytes = Buffer.byteLength(text)
  if (bytes > limits.maxBytes) {
    throw new DocumentError(
      'too_large',
      `The document is ${bytes} bytes; the limit is ${limits.maxBytes} bytes.`,
    )
  }
}

/** An OpenAPI document read from JSON or YAML, ready for the parser. */
export type OpenApiDocument = {
  readonly document: Record<string, unknown>
  /** The `openapi` version it is parsed as; a converted 2.0 document reads `3.0.0`. */
  readonly openapi: string
  readonly version: string
  readonly decoded: DecodedDocument
  readonly converted: boolean
  /** The operations of a 2.0 document without `responses`, which the conversion invents. */
  readonly withoutResponses?: readonly (readonly string[])[]
  readonly origins: readonly ContentOrigin[]
  readonly refFailures: ReadonlyMap<string, string>
}

/** Decodes, recognises, bundles relative refs and converts 2.0: everything before the parser. */
export async function loadOpenApi(
  source: ApiSource,
  options: ParseApiOptions,
  limits: InputLimits,
): Promise<OpenApiDocument> {
  const read = await readOpenApi(source, options, limits)
  if (read.version === '2.0') {
    return {
      document: await convertSwagger(read.document, source.origin),
      openapi: '3.0.0',
      version: read.version,
      decoded: read.decoded,
      converted: true,
      withoutResponses: swaggerOperationsWithoutResponses(read.document),
      origins: [],
      refFailures: read.refFailures,
    }
  }
  return { ...read, openapi: read.version, converted: false }
}

/** An OpenAPI document as written (2.0 not converted), with its relative refs bundled. */
export type SourceOpenApi = Pick<
  OpenApiDocument,
  'document' | 'version' | 'decoded' | 'origins' | 'refFailures'
>

/** Decodes, recognises and bundles relative refs: {@link loadOpenApi} without the 2.0 conversion. */
export async function readOpenApi(
  source: ApiSource,
  options: Pick<ParseApiOptions, 'readFile'>,
  limits: InputLimits,
): Promise<SourceOpenApi> {
  const file = source.origin
  // Only a file's relative refs are followed; scanning 13 MB for them costs when they cannot be.
  const followsRefs =
    Boolean(options.readFile && file && isAbsolute(file)) && mayHaveExternalRefs(source.text)
  const decoded = await decode(source.text, limits, file, followsRefs)
  const root = decoded.value
  if (root === null || typeof root !== 'object' || Array.isArray(root)) {
    throw new DocumentError(
      'unknown_protocol',
      'The document is neither an OpenAPI description (no `openapi` or `swagger` key) nor GraphQL SDL.',
      file ? { file } : {},
    )
  }
  let document = root as Record<string, unknown>
  const version = versionOf(document, file)
  let origins: readonly ContentOrigin[] = []
  let refFailures: ReadonlyMap<string, string> = new Map()
  if (followsRefs && options.readFile && file) {
    const bundled = bundleExternalRefs(document, decoded, {
      file,
      readFile: options.readFile,
      limits,
      schemasAt: version === '2.0' ? ['definitions'] : ['components', 'schemas'],
    })
    document = bundled.document
    origins = bundled.origins
    refFailures = bundled.failures
  }
  return { document, version, decoded, origins, refFailures }
}

async function decode(
  text: string,
  limits: InputLimits,
  file: string | undefined,
  followsRefs: boolean,
): Promise<DecodedDocument> {
  const json = looksLikeJson(text)
  // Referenced files may be YAML even when the root is JSON.
  if (!json || followsRefs) await loadYaml()
  try {
    return decodeDocument(text, limits, file)
  } catch (error) {
    // Text that starts like JSON but is not may be YAML flow style.
    if (!json || !(error instanceof DocumentError) || error.code !== 'invalid_syntax') throw error
    await loadYaml()
    return decodeDocument(text, limits, file)
  }
}

async function parseOpenApi(
  source: ApiSource,
  options: ParseApiOptions,
  limits: InputLimits,
): Promise<ParseApiResult> {
  const loaded = await loadOpenApi(source, options, limits)
  const issues = new IssueLog()
  for (const operation of loaded.withoutResponses ?? []) reportMissingResponses(issues, operation)
  const model = parseOas(loaded.document, loaded.openapi, issues, loaded.refFailures)
  const positions = options.positions ?? 'auto'
  const locate =
    positions === true ||
    (positions === 'auto' &&
      (loaded.decoded.format === 'yaml' || source.text.length <= JSON_POSITIONS_MAX_BYTES))
  const parseIssues = attachPositions(
    issues.recorded,
    locate ? loaded.decoded : undefined,
    locate ? loaded.origins : [],
    loaded.converted ? swaggerPath : undefined,
  )
  return {
    model,
    parseIssues,
    source: { protocol: 'oas', format: loaded.decoded.format, version: loaded.version },
  }
}

function versionOf(document: Record<string, unknown>, file: string | undefined): string {
  const where = file ? { file } : {}
  if (document.openapi !== undefined) {
    const version = String(document.openapi)
    if (/^3\.[01](\.\d+)?(-.+)?$/.test(version)) return version
    throw new DocumentError(
      'unsupported_version',
      `Unsupported OpenAPI version: ${version}; expected 3.0.x or 3.1.x (or swagger 2.0).`,
      where,
    )
  }
  if (document.swagger !== undefined) {
    if (String(document.swagger) === '2.0') return '2.0'
    throw new DocumentError(
      'unsupported_version',
      `Unsupported Swagger version: ${String(document.swagger)}; only 2.0 is read.`,
      where,
    )
  }
  throw new DocumentError(
    'unknown_protocol',
    'The document is neither an OpenAPI description (no `openapi` or `swagger` key) nor GraphQL SDL.',
    where,
  )
}
