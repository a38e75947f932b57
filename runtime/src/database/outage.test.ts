import { describe, expect, it, vi } from 'vitest'
import { asOutage, DatabaseUnavailable, isOutage, isReadConflict, OutageLog } from './outage.js'
import { QueryTimeout, transactionOptions, withinBudget } from './timeouts.js'

/** An error as Prisma wraps a driver adapter's. */
const prismaError = (code: string, driverAdapterError?: unknown) =>
  Object.assign(new Error(`Prisma error ${code}`), { code, meta: { driverAdapterError } })

describe('isOutage: the database unavailable, not a bug', () => {
  it.each([
    ['pg pool connect timeout', new Error('timeout exceeded when trying to connect')],
    ['pg query_timeout', new Error('Query read timeout')],
    ['pg connection ended', new Error('Connection terminated unexpectedly')],
    ['socket refused', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })],
    ['Prisma P1001', prismaError('P1001')],
    ['Prisma P2024 (pool)', prismaError('P2024')],
    ['Prisma P2028 (transaction wait)', prismaError('P2028')],
    [
      'statement_timeout (57014)',
      { name: 'DriverAdapterError', cause: { kind: 'postgres', code: '57014' } },
    ],
    [
      'pg lock_timeout (55P03)',
      { name: 'DriverAdapterError', cause: { kind: 'postgres', code: '55P03' } },
    ],
    [
      'MariaDB max_statement_time (70100)',
      prismaError('P2010', {
        name: 'DriverAdapterError',
        cause: { kind: 'mysql', code: 1969, state: '70100' },
      }),
    ],
    [
      'MariaDB lock wait timeout (1205, HY000)',
      { name: 'DriverAdapterError', cause: { kind: 'mysql', code: 1205, state: 'HY000' } },
    ],
    [
      'MySQL max_execution_time (3024, HY000)',
      { name: 'DriverAdapterError', cause: { kind: 'mysql', code: 3024, state: 'HY000' } },
    ],
    [
      'adapter: too many connections',
      prismaError('P2010', { name: 'DriverAdapterError', cause: { kind: 'TooManyConnections' } }),
    ],
    ['SQLite busy', Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })],
    ['the budget', new QueryTimeout(10)],
    ['wrapped in a cause', new Error('outer', { cause: new Error('Connection terminated') })],
  ])('%s', (_name, error) => {
    expect(isOutage(error)).toBe(true)
  })

  it.each([
    ['a TypeError', new TypeError("Cannot read properties of undefined (reading 'id')")],
    [
      'a value out of range',
      prismaError('P2020', { name: 'DriverAdapterError', cause: { kind: 'ValueOutOfRange' } }),
    ],
    ['a syntax error', { name: 'DriverAdapterError', cause: { kind: 'postgres', code: '42601' } }],
    [
      'a MariaDB error of the same SQLSTATE as a lock wait (1030, the storage engine)',
      { name: 'DriverAdapterError', cause: { kind: 'mysql', code: 1030, state: 'HY000' } },
    ],
    [
      'a lock wait number from another database',
      { name: 'DriverAdapterError', cause: { kind: 'postgres', code: 1205 } },
    ],
    ['a string', 'boom'],
    [
      'a cycle',
      (() => {
        const e = new Error('x')
        ;(e as { cause?: unknown }).cause = e
        return e
      })(),
    ],
  ])('%s is not', (_name, error) => {
    expect(isOutage(error)).toBe(false)
  })
})

describe('asOutage: a 503 with Retry-After, logged once per episode', () => {
  it('logs the first failure of an episode only', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    const episodes = new OutageLog()
    try {
      const answers = [1, 2, 3].map(() => asOutage(new Error('Query read timeout'), 7, episodes))
      for (const answer of answers) {
        expect(answer).toBeInstanceOf(DatabaseUnavailable)
        const response = (answer as DatabaseUnavailable).getResponse()
        expect(response.status).toBe(503)
        expect(response.headers.get('Retry-After')).toBe('7')
      }
      expect(log).toHaveBeenCalledTimes(1)
      const bug = new TypeError('a bug')
      expect(asOutage(bug)).toBe(bug)
    } finally {
      log.mockRestore()
    }
  })
})

describe('isReadConflict: a read the database cancelled, to read again', () => {
  it.each([
    // What Prisma threw for a hot standby's "conflict with recovery" (replicas.e2e.test.ts).
    [
      'Prisma P2034 over the pg adapter',
      prismaError('P2034', {
        name: 'DriverAdapterError',
        cause: { kind: 'TransactionWriteConflict' },
      }),
    ],
    ['pg 40001', { name: 'DriverAdapterError', cause: { kind: 'postgres', code: '40001' } }],
    ['MariaDB deadlock', { name: 'DriverAdapterError', cause: { kind: 'mysql', state: '40001' } }],
    // What Prisma 8's runtime threw for a serialization failure (example-prisma8's runner test).
    [
      'Prisma 8 SqlQueryError',
      {
        name: 'SqlQueryError',
        kind: 'sql_query',
        sqlState: '40001',
        cause: Object.assign(new Error('could not serialize access'), { code: '40001' }),
      },
    ],
  ])('%s', (_name, error) => {
    expect(isReadConflict(error)).toBe(true)
    expect(isOutage(error)).toBe(true)
  })

  it('is a 503 with Retry-After, not logged as an outage', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const answer = asOutage(prismaError('P2034'), 3, new OutageLog()) as DatabaseUnavailable
      expect(answer.getResponse().status).toBe(503)
      expect(answer.getResponse().headers.get('Retry-After')).toBe('3')
      expect(log).not.toHaveBeenCalled()
      expect(isReadConflict(new Error('Query read timeout'))).toBe(false)
    } finally {
      log.mockRestore()
    }
  })
})

describe('withinBudget', () => {
  it('answers with a QueryTimeout once the budget is spent', async () => {
    const never = new Promise<never>(() => {})
    const started = performance.now()
    await expect(withinBudget(never, 30)).rejects.toBeInstanceOf(QueryTimeout)
    expect(performance.now() - started).toBeGreaterThanOrEqual(25)
  })

  it('passes results and errors through', async () => {
    await expect(withinBudget(Promise.resolve(4), 1000)).resolves.toBe(4)
    await expect(withinBudget(Promise.reject(new Error('x')), 1000)).rejects.toThrow('x')
  })

  it('transaction options: those given, the defaults for the others', () => {
    expect(transactionOptions(undefined)).toEqual({ maxWait: 10000, timeout: 20000 })
    expect(transactionOptions({ transactionMaxWait: 100 })).toEqual({
      maxWait: 100,
      timeout: 20000,
    })
    expect(transactionOptions({ transactionMaxWait: 1, transaction: 2 })).toEqual({
      maxWait: 1,
      timeout: 2,
    })
  })
})
