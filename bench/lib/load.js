import autocannon from 'autocannon'

/**
 * One autocannon run of one request shape against `url` (for `seconds`, or `amount` requests),
 * every response's status counted and the first answer of 300 or more kept as `sample`. `rate`
 * counts 2xx responses only; `answered` is every response, `sent` every request sent.
 */
export async function runLoad({ url, request, connections, seconds, amount, timeout }) {
  const statuses = {}
  let sample
  const result = await autocannon({
    url,
    connections,
    pipelining: 1,
    timeout,
    ...(amount ? { amount } : { duration: seconds }),
    requests: [
      {
        ...request,
        onResponse: (status, text) => {
          statuses[status] = (statuses[status] ?? 0) + 1
          if (status >= 300 && sample === undefined) sample = `${status} ${text.slice(0, 600)}`
        },
      },
    ],
  })
  return {
    seconds: result.duration,
    ok: result['2xx'],
    answered: Object.values(statuses).reduce((a, b) => a + b, 0),
    sent: result.requests.sent,
    rate: result['2xx'] / result.duration,
    latencyMs: {
      mean: result.latency.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      min: result.latency.min,
      max: result.latency.max,
    },
    statuses,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    ...(sample ? { sample } : {}),
  }
}
