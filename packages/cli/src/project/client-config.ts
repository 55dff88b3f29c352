import { z } from 'zod'
import { readJsonFile, writeJsonFile } from './json-file.js'

const clientConfigSchema = z.looseObject({
  project: z
    .string()
    .regex(/^@[a-z0-9-]+\/[a-z0-9-]+$/, 'must be @account/slug')
    .optional(),
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
