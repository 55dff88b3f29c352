import { relative, resolve, sep } from 'node:path'
import { z } from 'zod'
import { readJsonFile, writeJsonFile } from './json-file.js'

const clientConfigSchema = z.looseObject({
  /** The hub project `svc push` and `svc pull` use; its form is checked when they resolve it. */
  project: z.string().optional(),
  /** Accepted and kept; `svc generate` reads it when no schema argument is given. */
  source: z.string().min(1).optional(),
  settings: z
    .looseObject({
      /** Where generated files go, relative to the app root. */
      basePath: z.string().min(1).optional(),
      enrichments: z.record(z.string(), z.unknown()).optional(),
      skip: z.array(z.string()).optional(),
      include: z.array(z.string()).optional(),
      importExtension: z.enum(['.ts', '.js', '']).optional(),
    })
    .default({}),
})

/** `.settings/client.json`: unknown keys are kept, so `svc pull` and users can add their own. */
export type ClientConfig = z.infer<typeof clientConfigSchema>

export function readClientConfig(path: string): ClientConfig {
  return readJsonFile(path, clientConfigSchema)
}

export function writeClientConfig(path: string, config: ClientConfig): void {
  writeJsonFile(path, config)
}

/** The default `basePath` of a new project, relative to the app root. */
export function defaultBasePath(project: string): string {
  return `generated/${project}`
}

/** The folder generated files go to: `settings.basePath`, relative to the app root. */
export function basePathOf(config: ClientConfig, appRoot: string, project: string): string {
  return resolve(appRoot, config.settings.basePath ?? defaultBasePath(project))
}

/**
 * Why svc must not write under a basePath: the app root itself or a folder above it would
 * put generated files among the user's own (and stale-file removal could delete them).
 */
export function basePathProblem(basePath: string, appRoot: string): string | undefined {
  if (basePath === appRoot || `${appRoot}${sep}`.startsWith(`${basePath}${sep}`))
    return `basePath '${relative(appRoot, basePath) || '.'}' is the app root or above it: svc would write among your own files`
  return undefined
}
