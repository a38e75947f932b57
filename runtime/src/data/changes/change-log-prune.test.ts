import { describe, expect, it } from 'vitest'
import { ChangeLog, type ChangeLogClient, markerId } from './change-log.js'

/**
 * A SQLite log of five entries of Note, all old enough, never pruned: the marker's insert fails with
 * `error` (as a process that inserted the marker first makes it fail, or any other fault).
 * `statements` records each statement run.
 */
function logWhoseMarkerFails(error: unknown) {
  const statements: string[] = []
  let inserted = false
  const client: ChangeLogClient = {
    async $queryRawUnsafe(query: string) {
      // The marker's row: none until the insert failed as another process's insert makes it fail.
      if (query.includes(`WHERE id = ${markerId('Note')}`))
        return inserted ? [{ k: '{"model": "Note"}' }] : []
      if (query.includes('id < 0')) return []
      if (query.includes('"at" <')) return [{ t: null, i: '5' }]
      return [{ i: '5' }]
    },
    async $executeRawUnsafe(statement: string) {
      statements.push(statement.split(' ')[0] as string)
      if (statement.startsWith('INSERT')) {
        inserted = true
        throw error
      }
      return 0
    },
  }
  return { log: new ChangeLog(client, 'sqlite'), statements }
}

/** What Prisma 7 throws for a raw statement's failure, as its driver adapters describe it. */
const rawFailure = (cause: Record<string, unknown>) =>
  Object.assign(new Error('Raw query failed'), {
    name: 'PrismaClientKnownRequestError',
    code: 'P2010',
    meta: { driverAdapterError: { name: 'DriverAdapterError', cause } },
  })

describe('pruning: the marker', () => {
  it.each([
    ['SQLite', { originalCode: 'SQLITE_CONSTRAINT_PRIMARYKEY', kind: 'UniqueConstraintViolation' }],
    ['PostgreSQL', { originalCode: '23505', kind: 'UniqueConstraintViolation' }],
    ['MySQL/MariaDB', { originalCode: '1062', kind: 'UniqueConstraintViolation' }],
  ])(
    'inserted by another process first (%s): moved on, and the prefix pruned',
    async (_, cause) => {
      const { log, statements } = logWhoseMarkerFails(rawFailure(cause))
      await log.prune('Note', 60)
      expect(statements).toEqual(['INSERT', 'UPDATE', 'DELETE'])
    }
  )

  it.each([
    ['a missing table', rawFailure({ originalCode: '42P01', kind: 'TableDoesNotExist' })],
    ['a lost connection', Object.assign(new Error('Connection terminated'), { code: 'P1017' })],
  ])('failing for %s: the error, and nothing pruned', async (_, error) => {
    const { log, statements } = logWhoseMarkerFails(error)
    await expect(log.prune('Note', 60)).rejects.toBe(error)
    expect(statements).toEqual(['INSERT'])
  })
})
