import { EXIT, type ExitCode } from '../../errors.js'
import type { Output } from '../../output.js'
import type { ProjectsListResult } from './index.js'

export function renderProjectsList(result: ProjectsListResult, output: Output): ExitCode {
  if (output.format === 'json') {
    output.json(result)
    return EXIT.ok
  }
  if (result.projects.length === 0) {
    output.result(
      `No projects on ${result.origin} that the token can read. Projects are created in the web app.`,
    )
    return EXIT.ok
  }
  const names = result.projects.map((p) => `@${p.project.account}/${p.project.slug}`)
  const stacks = result.projects.map((p) => `@${p.stack.account}/${p.stack.slug}@${p.stackVersion}`)
  const width = Math.max(...names.map((name) => name.length))
  const stackWidth = Math.max(...stacks.map((stack) => stack.length))
  const count = result.projects.length
  output.result(`${count} ${count === 1 ? 'project' : 'projects'} on ${result.origin}`)
  result.projects.forEach((p, i) =>
    output.result(
      `  ${names[i]!.padEnd(width)}  stack ${stacks[i]!.padEnd(stackWidth)}  api ${p.api.owner}/${p.api.slug}  config ${p.configUpdatedAt ?? 'never pushed'}`,
    ),
  )
  return EXIT.ok
}
