export * from './catalogue.js'
export * from './parse-issue.js'
export { IssueLog, formatLocation, parseLocation, type RecordedIssue } from './issue-log.js'
