/**
 * The servers bench/peers.ts loads, one process each:
 *
 *   node --import tsx bench/peers-server.ts <kind> <database url>
 *
 * The database URL decides the database (`file:` SQLite, `postgres:` PostgreSQL). Every server
 * answers the same three requests with the same JSON-LD document (checked byte for byte before
 * any measurement), 30 events a page, newest first (`createdAt desc, id desc`):
 *
 * - full paging, `GET /events?page=N`: the page, `hydra:totalItems` and the full view;
 * - partial paging, `GET /events/partial?page=N`: the page and the previous/next links;
 * - cursor paging, `GET /events/feed?createdAt[lt]=…&id[lt]=…`: the 30 events after a position,
 *   and the previous/next links the generated route writes.
 *
 * The kinds (a kind that has no way to serve a mode answers 404 there, and is left out of it):
 *
 * - generated: `createHydraApp` from bench/.generated(-postgresql), on @hono/node-server.
 * - compiled: the same app with `engine: 'compiled'` and the client's adapter shared
 *   (`shareAdapter`): the SQL written at generate time, run on the client's own driver adapter.
 * - handwritten: Hono routes with the Prisma client as its documentation shows them: the page and
 *   `count()` in one `$transaction([...])` (full); `take` one more row (partial); Prisma's own
 *   `cursor: { id }` with `skip: 1` (cursor).
 * - pagination: Hono routes on prisma-extension-pagination: `withPages({ includePageCount: true })`
 *   (full), `withPages()` (partial), `withCursor({ after })` (cursor).
 * - relay: Hono routes on @devoxa/prisma-relay-cursor-connection's `findManyCursorConnection`
 *   (cursor only: a Relay connection has no page numbers), which counts every request.
 * - floor: `node:http` and the database's own driver (better-sqlite3, node-postgres with a pool of
 *   10 connections, as `@prisma/adapter-pg` makes) running the plain SQL a person would write: a
 *   `LIMIT`/`OFFSET` page and `SELECT COUNT(*) FROM "Event"`, a row-value keyset `WHERE`, each
 *   statement prepared once. No framework, no ORM: what nothing built on them can beat.
 *
 * Prints `listening <port>` once ready; answers the IPC message `cpu` with its
 * `process.cpuUsage()`, and exits on `exit`.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { findManyCursorConnection } from '@devoxa/prisma-relay-cursor-connection'
import { serve } from '@hono/node-server'
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3'
import { shareAdapter } from '@prisma-hydra/runtime'
import Database from 'better-sqlite3'
import { type Context, Hono } from 'hono'
import pg from 'pg'
import { pagination } from 'prisma-extension-pagination'

export const KINDS = [
  'generated',
  'compiled',
  'handwritten',
  'pagination',
  'relay',
  'floor',
] as const
export type Kind = (typeof KINDS)[number]
export const MODES = ['full', 'partial', 'cursor'] as const
export type Mode = (typeof MODES)[number]
/** The modes each kind serves. */
export const SERVES: Record<Kind, readonly Mode[]> = {
  generated: MODES,
  compiled: MODES,
  handwritten: MODES,
  pagination: MODES,
  relay: ['cursor'],
  floor: MODES,
}

const PER_PAGE = 30
const CONTENT_TYPE = 'application/ld+json; charset=utf-8'
const ORDER = [{ createdAt: 'desc' }, { id: 'desc' }] as const
const SELECT = { id: true, createdAt: true, payload: true } as const

interface EventRow {
  id: number
  createdAt: Date
  payload: string
}

/** A position in the feed's order: the `createdAt` and `id` of a row. */
interface Position {
  createdAt: Date
  id: number
}

/** The header every response of the API carries: where its documentation is. */
const link = (origin: string) =>
  `<${origin}/docs.jsonld>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"`

const members = (rows: EventRow[]) =>
  rows.map((row) => ({
    '@id': `/events/${row.id}`,
    '@type': 'Event',
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    payload: row.payload,
  }))

/** The `hydra:search` template the generated routes write: `page`, and a feed's cursor ranges. */
function search(path: string, cursor: boolean) {
  const ranges = cursor
    ? ['createdAt', 'id'].flatMap((field) =>
        ['lt', 'gt', 'lte', 'gte'].map((operator) => [`${field}[${operator}]`, field] as const)
      )
    : []
  const mappings = [...ranges, ['page', 'hydra:pageIndex'] as const]
  return {
    '@type': 'hydra:IriTemplate',
    'hydra:template': `${path}{?${mappings.map(([variable]) => variable).join(',')}}`,
    'hydra:variableRepresentation': 'BasicRepresentation',
    'hydra:mapping': mappings.map(([variable, property]) => ({
      '@type': 'IriTemplateMapping',
      variable,
      property,
      required: false,
    })),
  }
}

/** The generated route's document for a page of full paging. */
function fullDocument(rows: EventRow[], totalItems: number, page: number) {
  const lastPage = Math.max(Math.ceil(totalItems / PER_PAGE), 1)
  const at = (target: number) => `/events?page=${target}`
  const view: Record<string, string> = {
    '@id': at(page),
    '@type': 'hydra:PartialCollectionView',
    'hydra:first': at(1),
    'hydra:last': at(lastPage),
  }
  if (page > 1) view['hydra:previous'] = at(page - 1)
  if (page < lastPage) view['hydra:next'] = at(page + 1)
  return {
    '@context': '/contexts/Event',
    '@id': '/events',
    '@type': 'hydra:Collection',
    'hydra:totalItems': totalItems,
    'hydra:member': members(rows),
    ...(lastPage > 1 ? { 'hydra:view': view } : {}),
    'hydra:search': search('/events', false),
  }
}

/** The generated route's document for a page of partial paging. */
function partialDocument(rows: EventRow[], hasNext: boolean, page: number) {
  const at = (target: number) => `/events/partial?page=${target}`
  const view: Record<string, string> = { '@id': at(page), '@type': 'hydra:PartialCollectionView' }
  if (page > 1) view['hydra:previous'] = at(page - 1)
  if (hasNext) view['hydra:next'] = at(page + 1)
  return {
    '@context': '/contexts/Event',
    '@id': '/events/partial',
    '@type': 'hydra:Collection',
    'hydra:member': members(rows),
    'hydra:view': view,
    'hydra:search': search('/events/partial', false),
  }
}

/** The feed's link to the rows past (`lt`) or before (`gt`) a row. */
export const feedLink = (row: Position, operator: 'lt' | 'gt') =>
  `/events/feed?createdAt%5B${operator}%5D=${encodeURIComponent(row.createdAt.toISOString())}&id%5B${operator}%5D=${row.id}`

/**
 * The generated route's document for the feed page after `after`: `previous` when a row precedes
 * the page (the rows measured always have one: the position's own row), `next` when one follows.
 */
function cursorDocument(rows: EventRow[], after: Position, hasNext: boolean) {
  const view: Record<string, string> = {
    '@id': feedLink(after, 'lt'),
    '@type': 'hydra:PartialCollectionView',
  }
  const first = rows[0]
  const last = rows.at(-1)
  if (first) view['hydra:previous'] = feedLink(first, 'gt')
  if (hasNext && last) view['hydra:next'] = feedLink(last, 'lt')
  return {
    '@context': '/contexts/Event',
    '@id': '/events/feed',
    '@type': 'hydra:Collection',
    'hydra:member': members(rows),
    'hydra:view': view,
    'hydra:search': search('/events/feed', true),
  }
}

/** `?page=` as a page number, or undefined when it is not a positive integer. */
function pageOf(raw: string | null | undefined): number | undefined {
  if (raw === null || raw === undefined) return 1
  const page = Number(raw)
  return Number.isSafeInteger(page) && page >= 1 ? page : undefined
}

/** The feed's position from `createdAt[lt]` and `id[lt]`, or undefined when malformed. */
function positionOf(query: (name: string) => string | null | undefined): Position | undefined {
  const createdAt = new Date(query('createdAt[lt]') ?? '')
  const id = Number(query('id[lt]'))
  if (Number.isNaN(createdAt.getTime()) || !Number.isSafeInteger(id)) return undefined
  return { createdAt, id }
}

/** The Prisma client and its adapter for the database of `url`, from the matching generation. */
async function prismaFor(url: string) {
  if (url.startsWith('file:')) {
    const { PrismaClient } = await import('./.generated/prisma/client.js')
    const { createHydraApp } = await import('./.generated/hydra/index.js')
    const adapter = shareAdapter(new PrismaBetterSqlite3({ url }))
    const prisma = new PrismaClient({ adapter })
    return {
      prisma,
      createHydraApp: (compiled: boolean) =>
        createHydraApp({ prisma, ...(compiled ? { engine: 'compiled', adapter } : {}) }).fetch,
    }
  }
  const [{ PrismaPg }, { PrismaClient }, { createHydraApp }] = await Promise.all([
    import('@prisma/adapter-pg'),
    import('./.generated-postgresql/prisma/client.js'),
    import('./.generated-postgresql/hydra/index.js'),
  ])
  const adapter = shareAdapter(new PrismaPg({ connectionString: url }))
  const prisma = new PrismaClient({ adapter })
  // Both generated clients have the same API for this schema: the SQLite one's types serve both.
  return {
    prisma: prisma as unknown as import('./.generated/prisma/client.js').PrismaClient,
    createHydraApp: (compiled: boolean) =>
      createHydraApp({ prisma, ...(compiled ? { engine: 'compiled', adapter } : {}) }).fetch,
  }
}
type Prisma = Awaited<ReturnType<typeof prismaFor>>['prisma']

function respond(c: Context, body: unknown) {
  return c.body(JSON.stringify(body), 200, {
    'Content-Type': CONTENT_TYPE,
    Link: link(new URL(c.req.url).origin),
    Vary: 'Accept',
  })
}

/** Hono routes for the three modes, each reading its rows through `read`. */
function honoApp(read: {
  full?: (page: number) => Promise<[EventRow[], number]>
  partial?: (page: number) => Promise<[EventRow[], boolean]>
  cursor?: (after: Position) => Promise<[EventRow[], boolean]>
}) {
  const app = new Hono()
  const { full, partial, cursor } = read
  if (full)
    app.get('/events', async (c) => {
      const page = pageOf(c.req.query('page'))
      if (page === undefined) return c.text('page must be a positive integer', 400)
      const [rows, total] = await full(page)
      return respond(c, fullDocument(rows, total, page))
    })
  if (partial)
    app.get('/events/partial', async (c) => {
      const page = pageOf(c.req.query('page'))
      if (page === undefined) return c.text('page must be a positive integer', 400)
      const [rows, hasNext] = await partial(page)
      return respond(c, partialDocument(rows, hasNext, page))
    })
  if (cursor)
    app.get('/events/feed', async (c) => {
      const after = positionOf((name) => c.req.query(name))
      if (!after) return c.text('createdAt[lt] and id[lt] are required', 400)
      const [rows, hasNext] = await cursor(after)
      return respond(c, cursorDocument(rows, after, hasNext))
    })
  return app.fetch
}

function handwritten(prisma: Prisma) {
  return honoApp({
    full: (page) =>
      prisma.$transaction([
        prisma.event.findMany({
          select: SELECT,
          orderBy: [...ORDER],
          skip: (page - 1) * PER_PAGE,
          take: PER_PAGE,
        }),
        prisma.event.count(),
      ]),
    partial: async (page) => {
      const rows = await prisma.event.findMany({
        select: SELECT,
        orderBy: [...ORDER],
        skip: (page - 1) * PER_PAGE,
        take: PER_PAGE + 1,
      })
      return [rows.slice(0, PER_PAGE), rows.length > PER_PAGE]
    },
    cursor: async (after) => {
      const rows = await prisma.event.findMany({
        select: SELECT,
        orderBy: [...ORDER],
        cursor: { id: after.id },
        skip: 1,
        take: PER_PAGE + 1,
      })
      return [rows.slice(0, PER_PAGE), rows.length > PER_PAGE]
    },
  })
}

function withPagination(base: Prisma) {
  const prisma = base.$extends(pagination())
  const query = { select: SELECT, orderBy: [...ORDER] }
  return honoApp({
    full: async (page) => {
      const [rows, meta] = await prisma.event
        .paginate(query)
        .withPages({ limit: PER_PAGE, page, includePageCount: true })
      return [rows, meta.totalCount]
    },
    partial: async (page) => {
      const [rows, meta] = await prisma.event.paginate(query).withPages({ limit: PER_PAGE, page })
      return [rows, !meta.isLastPage]
    },
    cursor: async (after) => {
      const [rows, meta] = await prisma.event
        .paginate(query)
        .withCursor({ limit: PER_PAGE, after: String(after.id) })
      return [rows, meta.hasNextPage]
    },
  })
}

function relay(prisma: Prisma) {
  return honoApp({
    cursor: async (after) => {
      const connection = await findManyCursorConnection<EventRow, { id: number }>(
        (args) => prisma.event.findMany({ ...args, select: SELECT, orderBy: [...ORDER] }),
        () => prisma.event.count(),
        { first: PER_PAGE, after: String(after.id) },
        {
          getCursor: (row) => ({ id: row.id }),
          encodeCursor: ({ id }) => String(id),
          decodeCursor: (cursor) => ({ id: Number(cursor) }),
        }
      )
      return [connection.nodes, connection.pageInfo.hasNextPage]
    },
  })
}

/** The plain SQL of the floor; `?` placeholders for SQLite, `$n` for PostgreSQL. */
const FLOOR_SQL = {
  page: 'SELECT "id", "createdAt", "payload" FROM "Event" ORDER BY "createdAt" DESC, "id" DESC LIMIT ? OFFSET ?',
  count: 'SELECT COUNT(*) FROM "Event"',
  after:
    'SELECT "id", "createdAt", "payload" FROM "Event" WHERE ("createdAt", "id") < (?, ?) ORDER BY "createdAt" DESC, "id" DESC LIMIT ?',
}
const numbered = (sql: string) => {
  let n = 0
  return sql.replace(/\?/g, () => `$${++n}`)
}

/** The floor's reads over better-sqlite3 (synchronous: one statement at a time, in order). */
function sqliteFloor(url: string) {
  const db = new Database(url.replace(/^file:/, ''), { fileMustExist: true, readonly: true })
  type Raw = { id: number; createdAt: string; payload: string }
  const page = db.prepare<[number, number], Raw>(FLOOR_SQL.page)
  const count = db.prepare<[], number>(FLOOR_SQL.count).pluck()
  const after = db.prepare<[string, number, number], Raw>(FLOOR_SQL.after)
  const rows = (raw: Raw[]) => raw.map((row) => ({ ...row, createdAt: new Date(row.createdAt) }))
  // createdAt as @prisma/adapter-better-sqlite3 stores it, to compare as text in the keyset.
  const stored = (date: Date) => date.toISOString().replace('Z', '+00:00')
  return {
    full: async (n: number): Promise<[EventRow[], number]> => [
      rows(page.all(PER_PAGE, (n - 1) * PER_PAGE)),
      count.get() as number,
    ],
    partial: async (n: number): Promise<[EventRow[], boolean]> => {
      const found = rows(page.all(PER_PAGE + 1, (n - 1) * PER_PAGE))
      return [found.slice(0, PER_PAGE), found.length > PER_PAGE]
    },
    cursor: async (position: Position): Promise<[EventRow[], boolean]> => {
      const found = rows(after.all(stored(position.createdAt), position.id, PER_PAGE + 1))
      return [found.slice(0, PER_PAGE), found.length > PER_PAGE]
    },
  }
}

/** The floor's reads over node-postgres: the page and the count side by side on the pool. */
function postgresFloor(url: string) {
  const pool = new pg.Pool({ connectionString: url, max: 10 })
  // timestamp(3) without time zone, as Prisma writes it: read and compared in UTC.
  pg.types.setTypeParser(pg.types.builtins.TIMESTAMP, (text) => new Date(`${text}Z`))
  pg.types.setTypeParser(pg.types.builtins.INT8, Number)
  const statement = (name: string, text: string) => ({ name, text: numbered(text) })
  const read = async (query: { name: string; text: string }, values: unknown[]) =>
    (await pool.query<EventRow>({ ...query, values })).rows
  const page = statement('page', FLOOR_SQL.page)
  const count = statement('count', FLOOR_SQL.count)
  const after = statement('after', FLOOR_SQL.after)
  const utc = (date: Date) => date.toISOString().replace('T', ' ').replace('Z', '')
  return {
    full: async (n: number): Promise<[EventRow[], number]> => {
      const [rows, [total]] = await Promise.all([
        read(page, [PER_PAGE, (n - 1) * PER_PAGE]),
        pool.query<{ count: number }>({ ...count, values: [] }).then((result) => result.rows),
      ])
      return [rows, Number(total?.count)]
    },
    partial: async (n: number): Promise<[EventRow[], boolean]> => {
      const found = await read(page, [PER_PAGE + 1, (n - 1) * PER_PAGE])
      return [found.slice(0, PER_PAGE), found.length > PER_PAGE]
    },
    cursor: async (position: Position): Promise<[EventRow[], boolean]> => {
      const found = await read(after, [utc(position.createdAt), position.id, PER_PAGE + 1])
      return [found.slice(0, PER_PAGE), found.length > PER_PAGE]
    },
  }
}

/** The floor on node:http: the same documents, no framework. */
function floor(url: string) {
  const read = url.startsWith('file:') ? sqliteFloor(url) : postgresFloor(url)
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

async function main() {
  const [kind, url] = process.argv.slice(2)
  if (!url || !KINDS.includes(kind as Kind)) {
    throw new Error(`usage: peers-server.ts <${KINDS.join('|')}> <database url>`)
  }
  process.on('message', (message) => {
    if (message === 'cpu') process.send?.(process.cpuUsage())
    // bench/profile.ts: a normal exit writes the --cpu-prof profile.
    if (message === 'exit') process.exit(0)
  })
  if (kind === 'floor') return floor(url)
  const { prisma, createHydraApp } = await prismaFor(url)
  const fetch =
    kind === 'generated' || kind === 'compiled'
      ? createHydraApp(kind === 'compiled')
      : kind === 'handwritten'
        ? handwritten(prisma)
        : kind === 'pagination'
          ? withPagination(prisma)
          : relay(prisma)
  serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
    process.stdout.write(`listening ${info.port}\n`)
  })
}

// Run only as a program: bench/peers.ts imports the lists above.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await main()
}
