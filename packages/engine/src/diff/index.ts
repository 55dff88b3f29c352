export {
  CHANGE_LEVELS,
  type Change,
  type ChangeCounts,
  type ChangeDelta,
  type ChangeLevel,
  type Changelog,
  type ChangelogIssues,
  type ErrorIssue,
  type ChangeSection,
  type ChangeSummary,
  type GqlSection,
  type OasSection,
} from './changelog.js'
export { diffDocuments, diffParsed, type DiffOptions, type DiffSide } from './diff-documents.js'
export { RULES, type RuleDefinition, type RuleId } from './rules.js'
export {
  DIFF_POLICIES,
  DIFF_PROFILES,
  type DiffPolicy,
  type DiffProfile,
  type PolicyOptions,
} from './policies.js'
export {
  locateChanges,
  type ChangePosition,
  type ChangelogPositions,
  type LocateChangesOptions,
  type SourcePosition,
} from './locate/locate-changes.js'
export { PATH_SEPARATOR, readablePath, readableSegments } from './readable-path.js'
export {
  groupChanges,
  type ChangeEntry,
  type ChangeGroup,
  type ChangeGroupKind,
  type GroupableChange,
} from './change-groups.js'
