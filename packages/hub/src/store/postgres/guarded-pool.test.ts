import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { postgresOutage } from './guarded-pool.js'

function serverError(code: string): pg.DatabaseError {
  const error = new pg.DatabaseError(`server says ${code}`, 0, 'error')
  error.code = code
  return error
}

describe('postgresOutage', () => {
  it('takes connection, shutdown, timeout and conflict errors of the server for outages', () => {
    expect(postgresOutage(serverError('08006'))?.reason).toBe('lost')
    expect(postgresOutage(serverError('57P01'))?.reason).toBe('lost')
    expect(postgresOutage(serverError('57P03'))?.reason).toBe('lost')
    expect(postgresOutage(serverError('53300'))?.reason).toBe('lost')
    expect(postgresOutage(serverError('25P03'))?.reason).toBe('lost')
    expect(postgresOutage(serverError('57014'))?.reason).toBe('timeout')
    expect(postgresOutage(serverError('40001'))?.reason).toBe('busy')
    expect(postgresOutage(serverError('40P01'))?.reason).toBe('busy')
  })

  it('leaves errors of the query itself alone', () => {
    expect(postgresOutage(serverError('23505'))).toBeUndefined()
    expect(postgresOutage(serverError('22P02'))).toBeUndefined()
    expect(postgresOutage(serverError('42P01'))).toBeUndefined()
    expect(postgresOutage(new TypeError('cannot read properties of undefined'))).toBeUndefined()
  })

  it('takes the errors of a lost or refused connection for outages', () => {
    const socket = (code: string) => Object.assign(new Error(`read ${code}`), { code })
    expect(postgresOutage(socket('ECONNRESET'))?.reason).toBe('lost')
    expect(postgresOutage(socket('ECONNREFUSED'))?.reason).toBe('lost')
    expect(postgresOutage(new Error('Connection terminated unexpectedly'))?.reason).toBe('lost')
    expect(postgresOutage(new Error('timeout exceeded when trying to connect'))?.reason).toBe(
      'timeout',
    )
    expect(
      postgresOutage(new Error('Client has encountered a connection error and is not queryable'))
        ?.reason,
    ).toBe('lost')
  })
})
