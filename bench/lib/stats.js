// Small helpers shared by the bench scripts.

export function median(values) {
  return percentile(values, 50)
}

/** Nearest-rank percentile of unsorted numbers; null for an empty list. */
export function percentile(values, p) {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]
}

export function round(value, digits = 0) {
  const factor = 10 ** digits
  return Math.round(value * factor) / factor
}

/** `--name value` and bare `--flag` pairs into an object. */
export function parseArgs(argv) {
  const args = {}
  for (let i = 0; i < argv.length; i++) {
    if (!argv[i].startsWith('--')) throw new Error(`unexpected argument: ${argv[i]}`)
    const name = argv[i].slice(2)
    const next = argv[i + 1]
    if (next === undefined || next.startsWith('--')) args[name] = true
    else args[name] = argv[++i]
  }
  return args
}
