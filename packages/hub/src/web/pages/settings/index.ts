import { Hono } from 'hono'
import type { WebEnv } from '../../env.js'
import { accountPages } from './account.js'
import { apiKeyPages } from './api-keys.js'
import { creditPages } from './credits.js'
import { memberPages } from './members.js'
import { orgPages } from './orgs.js'
import { rateLimitPages } from './rate-limits.js'
import { tokenPages } from './tokens.js'
import { usagePages } from './usage.js'

/**
 * Account and organisation settings (docs/web/settings.md): `/settings`, `/settings/tokens`,
 * `/orgs/new` and `/{org}/settings/…`. Signed-out visitors are sent to sign in; an organisation's
 * pages are the not-found page for everyone but its members; only owners change anything.
 */
export const settingsPages = new Hono<WebEnv>()
  .route('/', accountPages)
  .route('/', tokenPages)
  .route('/', orgPages)
  .route('/', memberPages)
  .route('/', apiKeyPages)
  .route('/', creditPages)
  .route('/', rateLimitPages)
  .route('/', usagePages)
