/**
 * The statements this test process sends its database, recorded at the driver below the Prisma
 * client and its driver adapter (as bench/peers-statements.ts counts them), with the connection
 * each went on: transaction control (`BEGIN`, `SET TRANSACTION …`, `COMMIT`) included, as the
 * database's own log would list it.
 *
 * - better-sqlite3 (SQLite): each run of a prepared statement and each `exec`.
 * - node-postgres (PostgreSQL): each `Client#query`.
 * - mariadb (MariaDB, MySQL): each text query and each prepare-and-execute.
 */
import { createRequire } from 'node:module'
import path from 'node:path'
import type { AppProvider } from '../../src/adapter.js'

/** One statement sent: its SQL and the connection it went on. */
export interface SentStatement {
  sql: string
  connection: object
}

const sent: SentStatement[] = []

/** Wraps `object[name]` to record the statement `sqlOf` reads from its call. */
function recorded(object: object, name: string, sqlOf: (self: object, arg: unknown) => string) {
  const method = Reflect.get(object, name) as unknown
  if (typeof method !== 'function') throw new Error(`no method ${name} to record statements at`)
  Reflect.set(object, name, function (this: object, ...args: unknown[]) {
    sent.push({ sql: sqlOf(this, args[0]), connection: this })
    return method.apply(this, args)
  })
}

const required = createRequire(import.meta.url)
/** A module as the driver adapter package `adapter` loads it (the same instance). */
const requiredBy = <T>(adapter: string, module: string): T =>
  createRequire(required.resolve(adapter))(module) as T

const textOf = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : String(
        (value as { text?: unknown; sql?: unknown })?.text ?? (value as { sql?: unknown })?.sql
      )

function recordSqlite(): void {
  const Database = requiredBy<
    new (
      file: string
    ) => { prepare(sql: string): object; close(): void }
  >('@prisma/adapter-better-sqlite3', 'better-sqlite3')
  const probe = new Database(':memory:')
  const statement = Object.getPrototypeOf(probe.prepare('SELECT 1')) as object
  probe.close()
  const source = (self: object) => ({
    sql: String(Reflect.get(self, 'source')),
    database: Reflect.get(self, 'database') as object,
  })
  for (const name of ['run', 'get', 'all', 'iterate']) {
    const method = Reflect.get(statement, name) as (...args: unknown[]) => unknown
    Reflect.set(statement, name, function (this: object, ...args: unknown[]) {
      const { sql, database } = source(this)
      sent.push({ sql, connection: database })
      return method.apply(this, args)
    })
  }
  recorded(Database.prototype, 'exec', (_self, sql) => textOf(sql))
}

function recordPostgres(): void {
  const { Client } = requiredBy<{ Client: { prototype: object } }>('@prisma/adapter-pg', 'pg')
  recorded(Client.prototype, 'query', (_self, config) => textOf(config))
}

function recordMariadb(): void {
  const main = createRequire(required.resolve('@prisma/adapter-mariadb')).resolve('mariadb')
  const Connection = required(path.join(path.dirname(main), 'lib', 'connection.js')) as {
    prototype: object
  }
  for (const name of ['query', 'prepareExecute'])
    recorded(Connection.prototype, name, (_self, command) => textOf(command))
}

/** The databases whose driver records already (files share a process: each is wrapped once). */
const recording = new Set<AppProvider>()

/** Records, from now on, the statements this process sends its `provider` database. */
export function recordStatements(provider: AppProvider): void {
  if (recording.has(provider)) return
  recording.add(provider)
  if (provider === 'sqlite') recordSqlite()
  else if (provider === 'mysql') recordMariadb()
  else recordPostgres()
}

/** The statements sent while `run` runs. */
export async function statementsOf(run: () => Promise<unknown>): Promise<SentStatement[]> {
  const from = sent.length
  await run()
  return sent.slice(from)
}
