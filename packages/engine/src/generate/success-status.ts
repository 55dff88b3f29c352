/**
 * The response whose data is a generated client's `<Operation>Response`: the lowest 2xx code,
 * else `2XX`, else `default` when no 2xx status is documented (an operation documented by
 * `default` alone). The fetch client names its types after it; the SDK diff compares it.
 */
export function successStatus(statuses: readonly string[]): string | undefined {
  const codes = statuses.filter((status) => /^2\d\d$/.test(status)).sort()
  if (codes.length > 0) return codes[0]
  return (
    statuses.find((status) => status.toUpperCase() === '2XX') ??
    statuses.find((status) => status === 'default')
  )
}
