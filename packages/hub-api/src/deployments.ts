import { z } from './zod.js'

const Ref = z.object({ account: z.string(), slug: z.string() })

export const DeploymentSchema = z
  .object({
    id: z.string(),
    project: Ref,
    stack: Ref,
    stackVersion: z.string().openapi({ description: 'The pinned semver version' }),
    versionUrl: z.url().openapi({ description: 'The version page on the hub' }),
    production: z.boolean().openapi({ description: 'Whether `production` points here' }),
    createdBy: z.string(),
    createdAt: z.iso.datetime(),
  })
  .openapi('Deployment')

export const DeploymentListSchema = z
  .object({ deployments: z.array(DeploymentSchema) })
  .openapi('DeploymentList')

export const AliasSchema = z
  .object({
    name: z.literal('production'),
    deployment: DeploymentSchema,
    updatedBy: z.string(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('ProjectAlias')

const RunArtifactSchema = z
  .object({
    path: z.string(),
    size: z.int(),
    sha256: z.string(),
    url: z.url().openapi({ description: 'The bytes: GET …/runs/{id}/artifacts/{path}' }),
  })
  .openapi('RunArtifact')

export const RunSchema = z
  .object({
    id: z.string(),
    project: Ref,
    deployment: z.string().openapi({ description: 'The deployment id' }),
    stackVersion: z.string(),
    revision: z
      .object({
        id: z.string(),
        sequence: z.int().openapi({ description: "The revision's number in its API: 1, 2, 3 …" }),
        url: z.url().openapi({ description: 'The revision page on the hub' }),
      })
      .nullable()
      .openapi({
        description:
          "The API's latest revision when the run was asked for; null when the API had none (the run failed)",
      }),
    status: z.enum(['running', 'succeeded', 'failed']),
    error: z.string().nullable().openapi({ description: 'Why a failed run failed' }),
    createdBy: z.string(),
    startedAt: z.iso.datetime(),
    finishedAt: z.iso.datetime().nullable(),
    durationMs: z.int().nullable(),
    artifactsPrunedAt: z.iso.datetime().nullable().openapi({
      description:
        "When the hub's retention rule removed the run's artifacts (its record stays); null while they are kept",
    }),
    url: z.url().openapi({ description: 'The run page on the hub' }),
    manifest: z.record(z.string(), z.unknown()).nullable().optional().openapi({
      description: 'What server.js answered (parseIssues, enrichmentWarnings …); one run only',
    }),
    log: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: 'The end of what the process printed; one run only' }),
    artifacts: z.array(RunArtifactSchema).optional().openapi({ description: 'One run only' }),
  })
  .openapi('Run')

export const RunListSchema = z.object({ runs: z.array(RunSchema) }).openapi('RunList')

export const CreateDeploymentSchema = z
  .strictObject({
    stackVersion: z.string().max(256).optional().openapi({
      description:
        "A published semver version of the project's stack, or `latest`; default: the project's pin",
    }),
  })
  .openapi('CreateDeployment')

export const CreateRunSchema = z
  .strictObject({
    deployment: z.string().max(64).optional().openapi({
      description:
        'A deployment id or `production`; default: the production deployment, else the latest one',
    }),
  })
  .openapi('CreateRun')

export const SetAliasSchema = z
  .strictObject({ deployment: z.string().max(64).openapi({ description: 'A deployment id' }) })
  .openapi('SetAlias')

export type Deployment = z.infer<typeof DeploymentSchema>
export type DeploymentList = z.infer<typeof DeploymentListSchema>
export type Alias = z.infer<typeof AliasSchema>
export type RunArtifact = z.infer<typeof RunArtifactSchema>
export type Run = z.infer<typeof RunSchema>
export type RunList = z.infer<typeof RunListSchema>
export type CreateDeployment = z.infer<typeof CreateDeploymentSchema>
export type CreateRun = z.infer<typeof CreateRunSchema>
export type SetAlias = z.infer<typeof SetAliasSchema>
