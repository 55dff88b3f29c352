// Driving bench/lib/webhook-receiver.js over its /control routes (see the top of that file).
import { call, expectStatus } from './hub-runs.js'

/** The receiver at `receiver.url`: set secrets, reset, wait for N deliveries, read its stats. */
export function receiverControl(receiver) {
  return {
    /** The secret of each webhook index (`/w/<i>`); also forgets what came so far. */
    secrets: (secrets) =>
      expectStatus(
        200,
        call(receiver.url, '/control/secrets', { method: 'PUT', json: secrets }),
        'receiver secrets',
      ),
    reset: () =>
      expectStatus(200, call(receiver.url, '/control/reset', { method: 'POST' }), 'receiver reset'),
    /** Waits until `count` deliveries are settled; answers `{ done, settled }`. */
    wait: async (count, timeoutMs) =>
      (
        await expectStatus(
          200,
          call(receiver.url, `/control/wait?count=${count}&timeoutMs=${timeoutMs}`),
          'receiver wait',
        )
      ).body,
    stats: async () =>
      (await expectStatus(200, call(receiver.url, '/control/stats'), 'receiver stats')).body,
  }
}
