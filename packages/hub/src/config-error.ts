/**
 * A setting of the environment is wrong: the hub stops before it opens anything, with the message
 * on one `error:` line and exit code 1. In a module of its own so that each area's settings
 * reader (`quotas/settings.ts` …) can throw it while `config.ts` imports that reader.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError'
}
