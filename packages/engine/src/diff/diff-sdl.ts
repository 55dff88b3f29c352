import type { DocumentNode } from 'graphql'
import { parseGraphqlErrors, parseSdl } from '../gql/parse-graphql.js'
import { rememberTree } from '../gql/recent-trees.js'
import { DocumentError, isStackOverflow } from '../input/document-error.js'
import { mergeChangelogs, type Changelog } from './changelog.js'
import { diffGraphqlDocuments } from './gql/diff-graphql.js'
import { errorIssues, failureChangelog, gqlFailures, type SideIssues } from './parse-failures.js'
import { mayHaveSdlErrors } from './sdl-suspects.js'

/**
 * Diffs two SDL texts over their definitions, as written. A side that may have error-level parse
 * issues is read into the model (from the same tree, parsed with its locations; only the units
 * that could have one are mapped) to find them; each definition they name is reported too, and
 * the changelog carries them.
 */
export function diffSdl(before: string, after: string): Changelog {
  const [old, next] = [parseSdl(before), parseSdl(after)]
  // locateChanges reads them next, for the places of the changes.
  rememberTree(old)
  rememberTree(next)
  const issuesOf = (ast: DocumentNode) =>
    mayHaveSdlErrors(ast) ? errorIssues(parseGraphqlErrors(ast)) : []
  return diffSdlDocuments(old, next, { before: issuesOf(old), after: issuesOf(next) })
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
