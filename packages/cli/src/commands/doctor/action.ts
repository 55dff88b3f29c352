import { EXIT, type ExitCode } from '../../errors.js'
import type { Output } from '../../output.js'
import { findAppRoot, listProjects } from '../../project/app-root.js'
import { nodeCheck, projectChecks, worst, type Check } from './checks.js'

export type DoctorFlags = { json?: boolean; project?: string }

/**
 * `svc doctor`: checks the machine and every project of the app root (or one), each with an id,
 * a status and, when something is wrong, a hint that fixes it. Exit 1 iff a check is an error;
 * what it finds never makes it exit 2 (only an unknown option does).
 */
export function doctorAction(
  flags: DoctorFlags,
  output: Output,
  cwd: string,
  cliVersion: string,
): ExitCode {
  const appRoot = findAppRoot(cwd)
  const all = appRoot === undefined ? [] : listProjects(appRoot)
  const projects = flags.project === undefined ? all : all.filter((name) => name === flags.project)
  const checks: Check[] = [nodeCheck()]
  if (appRoot === undefined)
    checks.push({
      id: 'app-root',
      status: 'warning',
      message: `no .svc folder in ${cwd} or above it`,
      hint: 'svc init <project>',
    })
  else if (flags.project !== undefined && projects.length === 0)
    checks.push({
      id: `project/${flags.project}`,
      status: 'error',
      message: `no project '${flags.project}' in ${appRoot}`,
      hint: `projects: ${all.join(', ') || 'none'}`,
    })
  else
    checks.push({
      id: 'app-root',
      status: 'ok',
      message: `${appRoot} with ${all.length} project(s): ${all.join(', ') || 'none'}`,
    })
  for (const project of projects) checks.push(...projectChecks(appRoot!, project))
  const summary = worst(checks)
  if (flags.json)
    output.json({
      type: 'doctor',
      appRoot: appRoot ?? null,
      cliVersion,
      nodeVersion: process.versions.node,
      projects,
      checks,
      summary,
    })
  else {
    const { color } = output
    const paint = { ok: color.green, skipped: color.dim, warning: color.yellow, error: color.red }
    const label = { ok: 'ok', skipped: 'skip', warning: 'warn', error: 'error' }
    const width = Math.max(...checks.map((check) => check.id.length))
    for (const check of checks) {
      const status = paint[check.status](label[check.status].padEnd(5))
      output.result(`${status} ${check.id.padEnd(width)}  ${check.message}`)
      if (check.hint && check.status !== 'ok')
        output.result(`      ${' '.repeat(width)}  ${color.dim(`→ ${check.hint}`)}`)
    }
  }
  return checks.some((check) => check.status === 'error') ? EXIT.failure : EXIT.ok
}
