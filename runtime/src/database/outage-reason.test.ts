import { describe, expect, it } from 'vitest'
import { outageReason } from './outage-reason.js'

/** What `@prisma/adapter-mariadb` made of the `mariadb` pool's timeout after a cut. */
const poolTimeout = {
  name: 'DriverAdapterError',
  cause: {
    originalCode: '45028',
    originalMessage:
      'pool timeout: failed to retrieve a connection from pool after 8000ms\n    (pool connections: active=0 idle=0 limit=1)',
    kind: 'mysql',
    code: 45028,
    message:
      'pool timeout: failed to retrieve a connection from pool after 8000ms\n    (pool connections: active=0 idle=0 limit=1)',
    state: 'HY000',
    cause: '(conn:-1, no: 45009, SQLState: 08S01) socket has unexpectedly been closed',
  },
}

/** The same as Prisma's client throws it. */
const prismaPoolTimeout = Object.assign(
  new Error(
    '\nInvalid `prisma.book.findUnique()` invocation in\n/app/src/books.ts:4:51\n\n→ 4 prisma.book.findUnique(\nDatabase error. Code: `45028`. Message: `pool timeout: failed to retrieve a connection from pool after 8000ms\n    (pool connections: active=0 idle=0 limit=1)`'
  ),
  { code: 'P2039', meta: { modelName: 'Book', driverAdapterError: poolTimeout } }
)

describe("outageReason: the driver's reason, on one line", () => {
  it.each([
    ['through Prisma', prismaPoolTimeout],
    ['from the driver adapter (compiled engine)', poolTimeout],
  ])(
    "MariaDB's pool timeout %s: its message and the connection failure behind it",
    (_name, error) => {
      expect(outageReason(error)).toBe(
        'pool timeout: failed to retrieve a connection from pool after 8000ms (pool connections: active=0 idle=0 limit=1); cause: (conn:-1, no: 45009, SQLState: 08S01) socket has unexpectedly been closed'
      )
    }
  )

  it("the `mariadb` driver's own error: its message without its header", () => {
    const error = Object.assign(
      new Error('(conn:-1, no: 45009, SQLState: 08S01) socket has unexpectedly been closed'),
      {
        name: 'SqlError',
        errno: 45009,
        sqlState: '08S01',
        sqlMessage: 'socket has unexpectedly been closed',
      }
    )
    expect(outageReason(error)).toBe('socket has unexpectedly been closed')
  })

  /** What `@prisma/adapter-better-sqlite3` made of `SQLITE_BUSY`. */
  const busy = {
    name: 'DriverAdapterError',
    message: 'SocketTimeout',
    cause: {
      originalCode: 'SQLITE_BUSY',
      originalMessage: 'database is locked',
      kind: 'SocketTimeout',
    },
  }
  it.each([
    ['from the driver adapter (compiled engine)', busy],
    [
      'through Prisma',
      Object.assign(
        new Error('\nInvalid `prisma.book.findMany()` invocation:\n\n\nOperation has timed out'),
        {
          code: 'P1008',
          meta: { driverAdapterError: busy },
        }
      ),
    ],
  ])("SQLite's busy timeout %s: the driver's own message", (_name, error) => {
    expect(outageReason(error)).toBe('database is locked')
  })

  it.each([
    [
      'a PostgreSQL timeout',
      new Error('timeout exceeded when trying to connect'),
      'timeout exceeded when trying to connect',
    ],
    [
      "Prisma's message: its last line",
      Object.assign(
        new Error(
          '\nInvalid `prisma.book.findMany()` invocation:\n\n\nTransaction API error: Unable to start a transaction in the given time.\n'
        ),
        { code: 'P2028' }
      ),
      'Transaction API error: Unable to start a transaction in the given time.',
    ],
    ['not an error', 'down', 'down'],
  ])('%s', (_name, error, reason) => {
    expect(outageReason(error)).toBe(reason)
  })
})
