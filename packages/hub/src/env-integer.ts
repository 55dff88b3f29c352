import { ConfigError } from './config-error.js'

/**
 * The whole number in `env[name]`, `fallback` when unset or empty; a value that is not a
 * non-negative whole number, or is below `min`, throws {@link ConfigError} naming the variable.
 */
export function envInteger(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  min = 0,
): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const value = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN
  if (!Number.isSafeInteger(value)) {
    throw new ConfigError(`${name} must be a non-negative integer, got '${raw}'`)
  }
  if (value < min) throw new ConfigError(`${name} must be at least ${min}, got '${raw}'`)
  return value
}
