import { Hono } from 'hono'
import type { WebEnv } from '../../env.js'
import { apisPages } from './apis.js'
import { changesPages } from './changes.js'
import { comparePages } from './compare.js'
import { revisionPages } from './revisions.js'
import { apiSettingsPages } from './settings.js'
import { webhookPages } from './webhooks/index.js'

/**
 * APIs, their revisions, changes (of a revision, or between any two), webhooks and settings (docs/web/apis.md, docs/web/webhooks.md): every
 * page reads and writes through the /v1 API as the viewer.
 */
export const apiPages = new Hono<WebEnv>()
  .route('/', apisPages)
  .route('/', revisionPages)
  .route('/', changesPages)
  .route('/', comparePages)
  .route('/', webhookPages)
  .route('/', apiSettingsPages)
