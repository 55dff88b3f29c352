import { Hono } from 'hono'
import type { WebEnv } from '../../env.js'
import { artifactPages } from './artifacts.js'
import { deploymentListPages } from './deployments.js'
import { runPages } from './run.js'
import { runListPages } from './runs.js'

/** A project's deployments and runs: the pages behind its Deployments and Runs tabs. */
export const deploymentPages = new Hono<WebEnv>()
  .route('/', deploymentListPages)
  .route('/', runListPages)
  .route('/', runPages)
  .route('/', artifactPages)
