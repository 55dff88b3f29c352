import { EXIT, type ExitCode } from '../../errors.js'
import type { Output } from '../../output.js'
import type { DoctorResult } from './index.js'

/** Exit 1 iff a check is an error. */
export function renderDoctor(result: DoctorResult, output: Output): ExitCode {
  const { checks } = result
  if (output.format === 'json') output.json(result)
  else {
    const { color } = output
    const paint = { ok: color.green, skipped: color.dim, warning: color.yellow, error: color.red }
    const label = { ok: 'ok', skipped: 'skip', warning: 'warn', error: 'error' }
    const width = Math.max(...checks.map((check) => check.id.length))
    for (const check of checks) {
      const status = paint[check.status](label[check.status].padEnd(5))
      output.result(`${status} ${check.id.padEnd(width)}  ${check.message}`)
      if (check.hint && check.status !== 'ok')
        output.result(`      ${' '.repeat(width)}  ${color.dim(`→ ${check.hint}`)}`)
    }
  }
  return checks.some((check) => check.status === 'error') ? EXIT.failure : EXIT.ok
}
