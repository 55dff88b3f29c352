/**
 * A setting of the environment that the hub cannot use: `svc-hub` prints its message and exits
 * 1. A leaf module, so that the modules which read their own settings (`readXSettings(env)`) and
 * `config.ts`, which calls them, do not import each other.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError'
}
