/**
 * The servers bench/throughput.ts loads, one process each:
 *
 *   node --import tsx bench/throughput-server.ts <generated|handwritten|floor> <database url>
 *
 * All three answer `GET /events?page=N` with the same JSON-LD document (checked byte for byte
 * before any measurement): page N of 30 events, newest first, with `hydra:totalItems` and the
 * full view. Prints `listening <port>` once ready; answers the IPC message `cpu` with its
 * `process.cpuUsage()`, so the benchmark reads the server's own CPU time between runs.
 *
 * - generated: `createHydraApp` from bench/.generated, served by @hono/node-server.
 * - handwritten: the same route written by hand with Hono and the same Prisma client: the page
 *   and the count in one transaction (as the generated route reads them), the body an object
 *   given to `JSON.stringify`.
 * - floor: `node:http` and better-sqlite3 with the SQL the Prisma client issues for those two
 *   queries (statements prepared once), the body built the same way. Nothing but the database and
 *   the JSON: what no framework can beat.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3'
import Database from 'better-sqlite3'
import { Hono } from 'hono'
import { createHydraApp } from './.generated/hydra/index.js'
import { PrismaClient } from './.generated/prisma/client.js'

const SERVERS = ['generated', 'handwritten', 'floor'] as const
type ServerKind = (typeof SERVERS)[number]

const PER_PAGE = 30
const CONTENT_TYPE = 'application/ld+json; charset=utf-8'
/** The header every response of the API carries: where its documentation is. */
const link = (origin: string) =>
  `<${origin}/docs.jsonld>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"`

interface EventRow {
  id: number
  createdAt: Date
  payload: string
}

/** The document every server sends for a page, keys in the generated route's order. */
function collection(rows: EventRow[], totalItems: number, page: number) {
  const lastPage = Math.max(Math.ceil(totalItems / PER_PAGE), 1)
  const link = (target: number) => `/events?page=${target}`
  const view: Record<string, string> = {
    '@id': link(page),
    '@type': 'hydra:PartialCollectionView',
    'hydra:first': link(1),
    'hydra:last': link(lastPage),
  }
  if (page > 1) view['hydra:previous'] = link(page - 1)
  if (page < lastPage) view['hydra:next'] = link(page + 1)
  return {
    '@context': '/contexts/Event',
    '@id': '/events',
    '@type': 'hydra:Collection',
    'hydra:totalItems': totalItems,
    'hydra:member': rows.map((row) => ({
      '@id': `/events/${row.id}`,
      '@type': 'Event',
      id: row.id,
      createdAt: row.createdAt.toISOString(),
      payload: row.payload,
    })),
    ...(lastPage > 1 ? { 'hydra:view': view } : {}),
  }
}

/** `?page=` as a page number, or undefined when it is not a positive integer. */
function pageOf(raw: string | null | undefined): number | undefined {
  if (raw === null || raw === undefined) return 1
  const page = Number(raw)
  return Number.isSafeInteger(page) && page >= 1 ? page : undefined
}

function generated(url: string) {
  const prisma = new PrismaClient({ adapter: new PrismaBetterSqlite3({ url }) })
  return createHydraApp({ prisma }).fetch
}

function handwritten(url: string) {
  const prisma = new PrismaClient({ adapter: new PrismaBetterSqlite3({ url }) })
  const app = new Hono().get('/events', async (c) => {
    const page = pageOf(c.req.query('page'))
    if (page === undefined) return c.json({ error: 'page must be a positive integer' }, 400)
    const [rows, totalItems] = await prisma.$transaction(
      [
        prisma.event.findMany({
          select: { id: true, createdAt: true, payload: true },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          skip: (page - 1) * PER_PAGE,
          take: PER_PAGE,
        }),
        prisma.event.count(),
      ],
      { isolationLevel: 'Serializable' }
    )
    return c.body(JSON.stringify(collection(rows, totalItems, page)), 200, {
      'Content-Type': CONTENT_TYPE,
      Link: link(new URL(c.req.url).origin),
      Vary: 'Accept',
    })
  })
  return app.fetch
}

function listen(fetch: (request: Request) => Response | Promise<Response>) {
  serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
    process.stdout.write(`listening ${info.port}\n`)
  })
}

/** The SQL the Prisma client sends for the page and for the count (seen in its query log). */
const PRISMA_SQL = {
  page: 'SELECT `main`.`Event`.`id`, `main`.`Event`.`createdAt`, `main`.`Event`.`payload` FROM `main`.`Event` WHERE 1=1 ORDER BY `main`.`Event`.`createdAt` DESC, `main`.`Event`.`id` DESC LIMIT ? OFFSET ?',
  count:
    'SELECT COUNT(*) AS `_count$_all` FROM (SELECT `main`.`Event`.`id` FROM `main`.`Event` WHERE 1=1 LIMIT ? OFFSET ?) AS `sub`',
}

function floor(url: string) {
  const db = new Database(url.replace(/^file:/, ''), { fileMustExist: true })
  const selectPage = db.prepare<
    [number, number],
    { id: number; createdAt: string; payload: string }
  >(PRISMA_SQL.page)
  const count = db.prepare<[number, number], number>(PRISMA_SQL.count).pluck()
  // BEGIN … COMMIT around both reads, as the Prisma adapter runs its transaction.
  const read = db.transaction((page: number) => {
    const rows = selectPage.all(PER_PAGE, (page - 1) * PER_PAGE)
    return [rows, count.get(-1, 0) as number] as const
  })
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost')
    const page = url.pathname === '/events' ? pageOf(url.searchParams.get('page')) : undefined
    if (page === undefined) {
      response.writeHead(url.pathname === '/events' ? 400 : 404).end()
      return
    }
    const [rows, totalItems] = read(page)
    const events = rows.map((row) => ({ ...row, createdAt: new Date(row.createdAt) }))
    const body = JSON.stringify(collection(events, totalItems, page))
    response
      .writeHead(200, {
        'Content-Type': CONTENT_TYPE,
        'Content-Length': Buffer.byteLength(body),
        Link: link(`http://${request.headers.host}`),
        Vary: 'Accept',
      })
      .end(body)
  })
  server.listen(0, '127.0.0.1', () => {
    process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`)
  })
}

process.on('message', (message) => {
  if (message === 'cpu') process.send?.(process.cpuUsage())
})

const [kind, url] = process.argv.slice(2)
if (!url || !SERVERS.includes(kind as ServerKind)) {
  throw new Error(`usage: throughput-server.ts <${SERVERS.join('|')}> <database url>`)
}
if (kind === 'floor') floor(url)
else listen(kind === 'generated' ? generated(url) : handwritten(url))
