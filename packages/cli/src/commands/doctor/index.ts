import type { CommandIO } from '../../command-io.js'
import { findAppRoot, listProjects } from '../../project/app-root.js'
import { nodeCheck, projectChecks, worst, type Check } from './checks.js'
import { hubChecks } from './hub-checks.js'

export type DoctorOptions = {
  /** Check only this project. */
  readonly project?: string | undefined
  /** The version of svc that runs, for the report. */
  readonly cliVersion: string
  /** The hub and token to check, resolved as every hub command does. */
  readonly token?: string | undefined
  readonly origin?: string | undefined
}

export type DoctorResult = {
  readonly type: 'doctor'
  readonly appRoot: string | null
  readonly cliVersion: string
  readonly nodeVersion: string
  readonly projects: readonly string[]
  readonly checks: readonly Check[]
  readonly summary: ReturnType<typeof worst>
}

/**
 * `svc doctor`: checks the machine, the hub and the login, and every project of the app root (or
 * one), each with an id,
 * a status and, when something is wrong, a hint that fixes it. Exit 1 iff a check is an error;
 * what it finds never makes it exit 2 (only an unknown option does).
 */
export async function doctor(options: DoctorOptions, io: CommandIO): Promise<DoctorResult> {
  const { cwd } = io
  const { project } = options
  const appRoot = findAppRoot(cwd)
  const all = appRoot === undefined ? [] : listProjects(appRoot)
  const projects = project === undefined ? all : all.filter((name) => name === project)
  const checks: Check[] = [nodeCheck(), ...(await hubChecks(options, io.env))]
  if (appRoot === undefined)
    checks.push({
      id: 'app-root',
      status: 'warning',
      message: `no .svc folder in ${cwd} or above it`,
      hint: 'svc init <project>',
    })
  else if (project !== undefined && projects.length === 0)
    checks.push({
      id: `project/${project}`,
      status: 'error',
      message: `no project '${project}' in ${appRoot}`,
      hint: `projects: ${all.join(', ') || 'none'}`,
    })
  else
    checks.push({
      id: 'app-root',
      status: 'ok',
      message: `${appRoot} with ${all.length} project(s): ${all.join(', ') || 'none'}`,
    })
  const login = checks.find((check) => check.id === 'login' && check.status === 'ok')
  const handle = typeof login?.data?.user === 'string' ? login.data.user : undefined
  for (const project of projects) checks.push(...projectChecks(appRoot!, project, handle))
  return {
    type: 'doctor',
    appRoot: appRoot ?? null,
    cliVersion: options.cliVersion,
    nodeVersion: process.versions.node,
    projects,
    checks,
    summary: worst(checks),
  }
}
