import { Hono } from 'hono'
import type { WebEnv } from '../../env.js'
import { projectListPages } from './list.js'
import { newProjectPages } from './new.js'
import { projectOverviewPages } from './overview.js'
import { projectConfigPages } from './config.js'
import { baseFilePages } from './base-files.js'

/** Projects: the list, creating one, and each project's overview, config and base files. */
export const projectPages = new Hono<WebEnv>()
  .route('/', projectListPages)
  .route('/', newProjectPages)
  .route('/', projectOverviewPages)
  .route('/', projectConfigPages)
  .route('/', baseFilePages)
