/**
 * Another connection holding tables until `release`, so that the reads of a test wait on them:
 * `LOCK TABLES … WRITE` (MySQL/MariaDB: give the client a pool of one connection, as the lock is
 * the connection's), an `EXCLUSIVE` transaction (SQLite: the whole database), an open transaction's
 * `ACCESS EXCLUSIVE` locks (PostgreSQL).
 */

import { createPrismaClient } from '../../src/prisma.js'

/** What the lock uses of a Prisma client. */
interface Locker {
  $executeRawUnsafe(query: string): PromiseLike<unknown>
  $transaction<T>(
    run: (tx: { $executeRawUnsafe(query: string): PromiseLike<unknown> }) => Promise<T>,
    options: { maxWait: number; timeout: number }
  ): Promise<T>
}

/** Holds `tables` through `locker` on `database` (a test project's name) until `release`. */
export async function holdTables(
  locker: Locker,
  tables: readonly string[],
  database: string
): Promise<{ release: () => Promise<void> }> {
  if (database === 'mysql') {
    await locker.$executeRawUnsafe(`LOCK TABLES ${tables.map((t) => `\`${t}\` WRITE`).join(', ')}`)
    return { release: async () => void (await locker.$executeRawUnsafe('UNLOCK TABLES')) }
  }
  if (database === 'sqlite') {
    await locker.$executeRawUnsafe('BEGIN EXCLUSIVE')
    return { release: async () => void (await locker.$executeRawUnsafe('COMMIT')) }
  }
  let locked = () => {}
  let release = () => {}
  const held = new Promise<void>((resolve) => {
    locked = resolve
  })
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  const quoted = tables.map((table) => `"${table}"`).join(', ')
  const holding = locker.$transaction(
    async (tx) => {
      await tx.$executeRawUnsafe(`LOCK TABLE ${quoted} IN ACCESS EXCLUSIVE MODE`)
      locked()
      await released
    },
    { maxWait: 5000, timeout: 60_000 }
  )
  await Promise.race([held, holding])
  return {
    release: async () => {
      release()
      await holding
    },
  }
}

/** What `readsRunning` uses of a Prisma client. */
interface Asker {
  $queryRawUnsafe<T>(query: string): PromiseLike<T>
}

/**
 * Statements naming `table` that the server is running now, but the asker's own (its own list
 * of running statements: `information_schema.PROCESSLIST`, `pg_stat_activity`), on MySQL/MariaDB
 * or PostgreSQL (a test project's name).
 */
export async function readsRunning(asker: Asker, table: string, database: string): Promise<number> {
  const sql =
    database === 'mysql'
      ? `SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST
         WHERE DB = DATABASE() AND COMMAND <> 'Sleep' AND INFO LIKE '%${table}%'
         AND ID <> CONNECTION_ID()`
      : `SELECT COUNT(*) AS n FROM pg_stat_activity
         WHERE datname = current_database() AND state = 'active' AND query LIKE '%${table}%'
         AND pid <> pg_backend_pid()`
  const [row] = await asker.$queryRawUnsafe<Array<{ n: bigint | number }>>(sql)
  return Number(row?.n ?? 0)
}

/**
 * `tables` held by a client of their own on `url` (a pool of one connection on MySQL/MariaDB,
 * where the lock is the connection's), with no statement or lock limit, so that it holds them as
 * long as the test needs; `release` frees them and disconnects it.
 */
export async function holdTablesOn(
  url: string,
  tables: readonly string[],
  database: string
): Promise<{ release: () => Promise<void> }> {
  const settings = new URL(url)
  if (database === 'mysql') settings.searchParams.set('connectionLimit', '1')
  const locker = createPrismaClient(settings.toString(), { statement: 0, lock: 0 })
  try {
    const held = await holdTables(locker, tables, database)
    return {
      release: async () => {
        await held.release()
        await locker.$disconnect()
      },
    }
  } catch (error) {
    await locker.$disconnect()
    throw error
  }
}
