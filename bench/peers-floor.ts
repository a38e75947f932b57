/**
 * The floor of bench/peers.ts: node:http and the database's own driver running the plain SQL a
 * person would write, each statement prepared once, answering the same documents as the other
 * servers (peers-documents.ts). No framework, no ORM: what nothing built on them can beat.
 *
 * - SQLite: better-sqlite3, read only, statements prepared once.
 * - PostgreSQL: node-postgres, a pool of 10 connections (as `@prisma/adapter-pg` makes), named
 *   statements; the page and the count side by side on the pool.
 * - MariaDB/MySQL: the `mariadb` driver, a pool of 10 connections (the driver's default, which
 *   `@prisma/adapter-mariadb` keeps), `execute` (the binary protocol) with its per-connection cache
 *   of prepared statements; the page and the count side by side on the pool; the keyset written as
 *   its expansion, which these optimizers read as an index range.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import Database from 'better-sqlite3'
import { createPool } from 'mariadb'
import pg from 'pg'
import {
  CONTENT_TYPE,
  cursorDocument,
  type EventRow,
  fullDocument,
  link,
  PER_PAGE,
  type Position,
  pageOf,
  partialDocument,
  positionOf,
} from './peers-documents.js'

/** The floor's three reads on one database. */
export interface FloorReads {
  full(page: number): Promise<[EventRow[], number]>
  partial(page: number): Promise<[EventRow[], boolean]>
  cursor(after: Position): Promise<[EventRow[], boolean]>
}

/** The plain SQL of the floor, with `?` placeholders; `"` quotes names (MariaDB: backquotes). */
const FLOOR_SQL = {
  page: 'SELECT "id", "createdAt", "payload" FROM "Event" ORDER BY "createdAt" DESC, "id" DESC LIMIT ? OFFSET ?',
  count: 'SELECT COUNT(*) AS "count" FROM "Event"',
  after:
    'SELECT "id", "createdAt", "payload" FROM "Event" WHERE ("createdAt", "id") < (?, ?) ORDER BY "createdAt" DESC, "id" DESC LIMIT ?',
}
const numbered = (sql: string) => {
  let n = 0
  return sql.replace(/\?/g, () => `$${++n}`)
}
const backquoted = (sql: string) => sql.replace(/"/g, '`')
/**
 * The keyset on MariaDB/MySQL as a person writes it there: their optimizers read a row-value
 * comparison as a filter over every row (a 30 % deep page of 1,000,000 rows took 0.3 s), the
 * expansion as a range of the index.
 */
const MARIADB_AFTER =
  'SELECT `id`, `createdAt`, `payload` FROM `Event` WHERE `createdAt` < ? OR (`createdAt` = ? AND `id` < ?) ORDER BY `createdAt` DESC, `id` DESC LIMIT ?'

/** The page of rows, and whether a next one exists, from `found` (one row more than a page). */
const withNext = (found: EventRow[]): [EventRow[], boolean] => [
  found.slice(0, PER_PAGE),
  found.length > PER_PAGE,
]

/** A `DATETIME(3)`/`timestamp(3)` as stored without a time zone, read as UTC. */
const utcText = (date: Date) => date.toISOString().replace('T', ' ').replace('Z', '')
const fromUtcText = (text: string) => new Date(`${text.replace(' ', 'T')}Z`)

/** The floor's reads over better-sqlite3 (synchronous: one statement at a time, in order). */
function sqliteFloor(url: string): FloorReads {
  const db = new Database(url.replace(/^file:/, ''), { fileMustExist: true, readonly: true })
  type Raw = { id: number; createdAt: string; payload: string }
  const page = db.prepare<[number, number], Raw>(FLOOR_SQL.page)
  const count = db.prepare<[], number>(FLOOR_SQL.count).pluck()
  const after = db.prepare<[string, number, number], Raw>(FLOOR_SQL.after)
  const rows = (raw: Raw[]) => raw.map((row) => ({ ...row, createdAt: new Date(row.createdAt) }))
  // createdAt as @prisma/adapter-better-sqlite3 stores it, to compare as text in the keyset.
  const stored = (date: Date) => date.toISOString().replace('Z', '+00:00')
  return {
    full: async (n) => [rows(page.all(PER_PAGE, (n - 1) * PER_PAGE)), count.get() as number],
    partial: async (n) => withNext(rows(page.all(PER_PAGE + 1, (n - 1) * PER_PAGE))),
    cursor: async (position) =>
      withNext(rows(after.all(stored(position.createdAt), position.id, PER_PAGE + 1))),
  }
}

/** The floor's reads over node-postgres: the page and the count side by side on the pool. */
function postgresFloor(url: string): FloorReads {
  const pool = new pg.Pool({ connectionString: url, max: 10 })
  // timestamp(3) without time zone, as Prisma writes it: read and compared in UTC.
  pg.types.setTypeParser(pg.types.builtins.TIMESTAMP, fromUtcText)
  pg.types.setTypeParser(pg.types.builtins.INT8, Number)
  const statement = (name: string, text: string) => ({ name, text: numbered(text) })
  const read = async (query: { name: string; text: string }, values: unknown[]) =>
    (await pool.query<EventRow>({ ...query, values })).rows
  const page = statement('page', FLOOR_SQL.page)
  const count = statement('count', FLOOR_SQL.count)
  const after = statement('after', FLOOR_SQL.after)
  return {
    async full(n) {
      const [rows, [total]] = await Promise.all([
        read(page, [PER_PAGE, (n - 1) * PER_PAGE]),
        pool.query<{ count: number }>({ ...count, values: [] }).then((result) => result.rows),
      ])
      return [rows, Number(total?.count)]
    },
    partial: async (n) => withNext(await read(page, [PER_PAGE + 1, (n - 1) * PER_PAGE])),
    cursor: async (position) =>
      withNext(await read(after, [utcText(position.createdAt), position.id, PER_PAGE + 1])),
  }
}

/** The floor's reads over the `mariadb` driver: the page and the count side by side on the pool. */
function mariadbFloor(url: string): FloorReads {
  const settings = new URL(url)
  // The driver reads `mariadb://` URLs only.
  settings.protocol = 'mariadb:'
  const pool = createPool(settings.toString())
  type Raw = { id: number; createdAt: string; payload: string }
  const read = async (sql: string, values: unknown[]) =>
    ((await pool.execute({ sql: backquoted(sql), dateStrings: true }, values)) as Raw[]).map(
      (row) => ({ id: row.id, createdAt: fromUtcText(row.createdAt), payload: row.payload })
    )
  return {
    async full(n) {
      const [rows, [total]] = await Promise.all([
        read(FLOOR_SQL.page, [PER_PAGE, (n - 1) * PER_PAGE]),
        pool.execute<{ count: bigint }[]>(backquoted(FLOOR_SQL.count)),
      ])
      return [rows, Number(total?.count)]
    },
    partial: async (n) => withNext(await read(FLOOR_SQL.page, [PER_PAGE + 1, (n - 1) * PER_PAGE])),
    cursor: async (position) =>
      withNext(
        await read(MARIADB_AFTER, [
          utcText(position.createdAt),
          utcText(position.createdAt),
          position.id,
          PER_PAGE + 1,
        ])
      ),
  }
}

/** The floor's reads for the database of `url` (`file:` SQLite, `postgres:`, `mysql:`). */
export function floorReads(url: string): FloorReads {
  if (url.startsWith('file:')) return sqliteFloor(url)
  if (/^(mysql|mariadb):/.test(url)) return mariadbFloor(url)
  return postgresFloor(url)
}

/** The floor on node:http: the same documents, no framework. Prints `listening <port>`. */
export function floor(url: string) {
  const read = floorReads(url)
  const server = createServer(async (request, response) => {
    const requested = new URL(request.url ?? '/', 'http://localhost')
    const query = (name: string) => requested.searchParams.get(name)
    let body: unknown
    if (requested.pathname === '/events' || requested.pathname === '/events/partial') {
      const page = pageOf(query('page'))
      if (page !== undefined && requested.pathname === '/events') {
        const [rows, total] = await read.full(page)
        body = fullDocument(rows, total, page)
      } else if (page !== undefined) {
        const [rows, hasNext] = await read.partial(page)
        body = partialDocument(rows, hasNext, page)
      }
    } else if (requested.pathname === '/events/feed') {
      const after = positionOf(query)
      if (after) {
        const [rows, hasNext] = await read.cursor(after)
        body = cursorDocument(rows, after, hasNext)
      }
    }
    if (body === undefined) {
      response.writeHead(requested.pathname.startsWith('/events') ? 400 : 404).end()
      return
    }
    const text = JSON.stringify(body)
    response
      .writeHead(200, {
        'Content-Type': CONTENT_TYPE,
        'Content-Length': Buffer.byteLength(text),
        Link: link(`http://${request.headers.host}`),
        Vary: 'Accept',
      })
      .end(text)
  })
  server.listen(0, '127.0.0.1', () => {
    process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`)
  })
}
