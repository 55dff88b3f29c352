import type { DocumentNode } from 'graphql'
import { parseSdl } from '../gql/parse-graphql.js'
import { DocumentError, isStackOverflow } from '../input/document-error.js'
import type { ParseIssue } from '../issues/index.js'
import { mergeChangelogs, type Changelog } from './changelog.js'
import { diffGraphqlDocuments } from './gql/diff-graphql.js'
import { errorIssues, failureChangelog, gqlFailures, type SideIssues } from './parse-failures.js'
import { mayHaveSdlErrors } from './sdl-suspects.js'

/**
 * Diffs two SDL texts over their definitions, as written. A side that may have error-level parse
 * issues is parsed in full (`parseIssues` asks for it) to find them; each definition they name is
 * reported too, and the changelog carries them.
 */
export async function diffSdl(
  before: string,
  after: string,
  parseIssues: (text: string) => Promise<readonly ParseIssue[]>,
): Promise<Changelog> {
  const [old, next] = [
    parseSdl(before, { noLocation: true }),
    parseSdl(after, { noLocation: true }),
  ]
  const issuesOf = async (ast: DocumentNode, text: string) =>
    mayHaveSdlErrors(ast) ? errorIssues(await parseIssues(text)) : []
  const issues = { before: await issuesOf(old, before), after: await issuesOf(next, after) }
  return diffSdlDocuments(old, next, issues)
}

/** {@link diffSdl} with each side's error-level parse issues already known. */
export function diffSdlDocuments(
  old: DocumentNode,
  next: DocumentNode,
  issues: SideIssues,
): Changelog {
  let log: Changelog
  try {
    log = diffGraphqlDocuments(old, next)
  } catch (error) {
    if (!isStackOverflow(error)) throw error
    throw new DocumentError('too_deep', 'The document is nested too deeply to read.', {
      cause: error,
    })
  }
  if (issues.before.length + issues.after.length === 0) return log
  const defined = definedNames(old)
  // The SDL diff compares what a failed definition says; this tells that it failed to parse.
  const failures = failureChangelog(gqlFailures(issues), {
    present: (item) => defined.has(item.key) || item.before.length > 0,
    unchanged: () => true,
  })
  return { ...mergeChangelogs(log, failures), issues }
}

function definedNames(document: DocumentNode): Set<string> {
  const names = new Set<string>()
  for (const definition of document.definitions)
    if ('name' in definition && definition.name)
      names.add(
        definition.kind === 'DirectiveDefinition'
          ? `@${definition.name.value}`
          : definition.name.value,
      )
  return names
}
