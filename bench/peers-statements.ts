/**
 * The statements a server of bench/peers-server.ts sends its database, counted at the driver, below
 * the Prisma client, its driver adapter and the `compiled` engine alike: whatever reaches the
 * database is one statement, transaction control included (`BEGIN`, `SET TRANSACTION ISOLATION
 * LEVEL …`, `COMMIT`), as the database's own log would list it. A server counts from its start
 * (`countStatements`) and answers the IPC message `statements` with the count so far; the
 * benchmark asks before and after one request (`statementsOf`).
 *
 * - better-sqlite3 (SQLite): each run of a prepared statement (`run`, `get`, `all`, `iterate`) and
 *   each `exec`; the adapter prepares `BEGIN` and every statement, the `compiled` engine runs the
 *   statements it prepared once.
 * - node-postgres (PostgreSQL): each `Client#query`, which the pool's `query`,
 *   `@prisma/adapter-pg` and Prisma 8's driver all end in (Prisma 8's copies of it counted too).
 * - mariadb (MariaDB, MySQL): each text query, each prepare-and-execute, and each execution of a
 *   statement prepared before (the `compiled` engine's); a `PREPARE` alone is not a statement run.
 */
import type { ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createRequire } from 'node:module'
import path from 'node:path'

let statements = 0

/** `object[name]`, a method, counting one statement a call before it runs. */
function counted(object: object, name: string): void {
  const method = Reflect.get(object, name) as unknown
  if (typeof method !== 'function') throw new Error(`no method ${name} to count statements at`)
  Reflect.set(object, name, function (this: unknown, ...args: unknown[]) {
    statements += 1
    return method.apply(this, args)
  })
}

const required = createRequire(import.meta.url)
/** A module as the driver adapter package `adapter` loads it (the same instance). */
const requiredBy = <T>(adapter: string, module: string): T =>
  createRequire(required.resolve(adapter))(module) as T

function countSqlite(): void {
  const Database = requiredBy<
    new (
      file: string
    ) => { prepare(sql: string): object; close(): void }
  >('@prisma/adapter-better-sqlite3', 'better-sqlite3')
  const probe = new Database(':memory:')
  const statement = Object.getPrototypeOf(probe.prepare('SELECT 1')) as object
  probe.close()
  for (const name of ['run', 'get', 'all', 'iterate']) counted(statement, name)
  counted(Database.prototype, 'exec')
}

/** A module as the ES module `specifier` (a package's export) loads it. */
const importedBy = <T>(specifier: string, module: string): T =>
  createRequire(import.meta.resolve(specifier))(module) as T

function countPostgres(): void {
  // @prisma/adapter-pg's node-postgres, and Prisma 8's: its client makes its pool with a copy of
  // its own and its driver another; each client is of one copy's `Client`.
  const clients = new Set([
    requiredBy<PgModule>('@prisma/adapter-pg', 'pg').Client.prototype,
    importedBy<PgModule>('@prisma/orm-postgres/runtime', 'pg').Client.prototype,
    importedBy<PgModule>('@prisma/orm-target-postgres/driver/runtime', 'pg').Client.prototype,
  ])
  for (const prototype of clients) counted(prototype, 'query')
}
type PgModule = { Client: { prototype: object } }

function countMariadb(): void {
  const main = createRequire(required.resolve('@prisma/adapter-mariadb')).resolve('mariadb')
  const lib = (file: string) => required(path.join(path.dirname(main), 'lib', file))
  const Connection = lib('connection.js') as { prototype: object }
  for (const name of ['query', 'prepareExecute']) counted(Connection.prototype, name)
  const Prepared = lib('cmd/class/prepare-result-packet.js') as { prototype: object }
  counted(Prepared.prototype, 'execute')
}

/** Counts, from now on, the statements this process sends the database of `url`. */
export function countStatements(url: string): void {
  if (url.startsWith('file:')) countSqlite()
  else if (/^(mysql|mariadb):/.test(url)) countMariadb()
  else countPostgres()
  process.on('message', (message) => {
    if (message === 'statements') process.send?.({ statements })
  })
}

/** The statements a server process has sent so far, asked over IPC while no load runs. */
async function statementsSoFar(child: ChildProcess): Promise<number> {
  const reply = once(child, 'message')
  child.send('statements')
  const [answer] = (await reply) as [{ statements: number }]
  return answer.statements
}

/**
 * The statements the server sends for one request of `path`: counted over a second request, so
 * that what a first one does once (a pool's connections, statements prepared once) is left out.
 */
export async function statementsOf(
  server: { child: ChildProcess; origin: string },
  path: string
): Promise<number> {
  await (await fetch(`${server.origin}${path}`)).arrayBuffer()
  const before = await statementsSoFar(server.child)
  await (await fetch(`${server.origin}${path}`)).arrayBuffer()
  return (await statementsSoFar(server.child)) - before
}
