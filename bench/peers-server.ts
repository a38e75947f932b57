/**
 * The servers bench/peers.ts loads, one process each:
 *
 *   node --import tsx bench/peers-server.ts <kind> <database url>
 *
 * The database URL decides the database (`file:` SQLite, `postgres:` PostgreSQL, `mysql:` MariaDB
 * or MySQL). Every server
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
 * - generated: `createHydraApp` from bench/.generated(-postgresql, -mysql), on @hono/node-server.
 * - generatedJoins (PostgreSQL only): the same app on a client of the copy generated with the
 *   `relationJoins` preview feature (bench/generate.ts), whose nested reads Prisma then joins by
 *   default: what the default engine asks of a client that has the join strategy.
 * - compiled: the same app with `engine: 'compiled'` and the client's adapter shared
 *   (`shareAdapter`): the SQL written at generate time, run on the client's own driver adapter.
 * - compiledNode22 (PostgreSQL only): `compiled` started under Node 22, beside `prisma8`.
 * - prisma8 (PostgreSQL only, under Node 22, Prisma 8's floor): the same generated app on the
 *   Prisma 8 back end (runtime/src/data/prisma8/back-end.ts), a Prisma 8 client of the contract
 *   `npm run bench:prepare` emits from the PostgreSQL copy of bench/schema.prisma
 *   (bench/.generated-prisma8/), read by the compiled engine alone.
 * - handwritten: Hono routes with the Prisma client as its documentation shows them: the page and
 *   `count()` in one `$transaction([...])` (full); `take` one more row (partial); Prisma's own
 *   `cursor: { id }` with `skip: 1` (cursor); and the shaped page of bench/peers-shaped.ts and the
 *   scoped pages of bench/peers-scoped.ts, which the generated routes answer too (their answers
 *   are compared as data, not bytes), and the listing of bench/peers-listing.ts.
 * - handwrittenBest: the same routes at their best (bench/peers-best.ts): relations joined
 *   (`relationLoadStrategy: 'join'`, on a client with the `relationJoins` preview feature) on
 *   PostgreSQL, the one database of the three Prisma joins on, the scoped sub-collection there one
 *   read of its seller.
 * - pagination: Hono routes on prisma-extension-pagination: `withPages({ includePageCount: true })`
 *   (full), `withPages()` (partial), `withCursor({ after })` (cursor).
 * - relay: Hono routes on @devoxa/prisma-relay-cursor-connection's `findManyCursorConnection`
 *   (cursor only: a Relay connection has no page numbers), which counts every request.
 * - honoFloor: the floor of a user of this stack: Hono routes on @hono/node-server answering from
 *   the floor's own reads (the driver, the plain SQL below), with the same documents. The
 *   `compiled` engine's floor.
 * - floor: `node:http` and the database's own driver running the plain SQL a person would write,
 *   each statement prepared once (peers-floor.ts). No framework, no ORM: what nothing built on
 *   them can beat.
 *
 * The generated and compiled servers serve the scoped pages of bench/peers-scoped.ts from the same
 * app under `/scoped`, made with a row scope, and under `/ruled` with that scope and a rule showing
 * a product's price on the products in stock only; the hand-written server has its routes for them.
 *
 * Prints `listening <port>` once ready; answers the IPC message `cpu` with its
 * `process.cpuUsage()`, `statements` with the statements it has sent its database
 * (bench/peers-statements.ts), and exits on `exit`.
 */
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { findManyCursorConnection } from '@devoxa/prisma-relay-cursor-connection'
import { serve } from '@hono/node-server'
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3'
import { shareAdapter } from '@prisma-hydra/runtime'
import { type Context, Hono } from 'hono'
import { pagination } from 'prisma-extension-pagination'
import { bestRoutes } from './peers-best.js'
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
import { floor, floorReads } from './peers-floor.js'
import { listingRoute } from './peers-listing.js'
import { IN_STOCK, scopedRoutes } from './peers-scoped.js'
import { shapedRoute } from './peers-shaped.js'
import { countStatements } from './peers-statements.js'

export const KINDS = [
  'generated',
  'generatedJoins',
  'compiled',
  'compiledNode22',
  'prisma8',
  'handwritten',
  'handwrittenBest',
  'pagination',
  'relay',
  'honoFloor',
  'floor',
] as const
export type Kind = (typeof KINDS)[number]
export const MODES = ['full', 'partial', 'cursor'] as const
export type Mode = (typeof MODES)[number]
/** The modes each kind serves. */
export const SERVES: Record<Kind, readonly Mode[]> = {
  generated: MODES,
  generatedJoins: MODES,
  compiled: MODES,
  compiledNode22: MODES,
  prisma8: MODES,
  handwritten: MODES,
  handwrittenBest: MODES,
  pagination: MODES,
  relay: ['cursor'],
  honoFloor: MODES,
  floor: MODES,
}

/** The databases a kind runs on, where not all (bench/peers.ts's ids): Prisma 8 is PostgreSQL's. */
export const ONLY_ON: Partial<Record<Kind, readonly string[]>> = {
  generatedJoins: ['postgresql'],
  compiledNode22: ['postgresql'],
  prisma8: ['postgresql'],
}
/** The kinds started under Node 22 (bench/node22.ts), Prisma 8's floor; the others on this Node. */
export const ON_NODE_22: ReadonlySet<Kind> = new Set(['compiledNode22', 'prisma8'])

const ORDER = [{ createdAt: 'desc' }, { id: 'desc' }] as const
const SELECT = { id: true, createdAt: true, payload: true } as const

// The generated clients of every provider have the same API for this schema: the SQLite one's
// types serve them all.
type SqlitePrisma = import('./.generated/prisma/client.js').PrismaClient
type PostgresPrisma = import('./.generated-postgresql/prisma/client.js').PrismaClient

/** The Prisma client and its adapter for the database of `url`, from the matching generation. */
async function prismaFor(url: string) {
  if (url.startsWith('file:')) {
    const { PrismaClient } = await import('./.generated/prisma/client.js')
    const { createHydraApp } = await import('./.generated/hydra/index.js')
    const adapter = shareAdapter(new PrismaBetterSqlite3({ url }))
    const prisma = new PrismaClient({ adapter })
    return {
      prisma,
      createHydraApp: (compiled: boolean, access?: typeof SCOPED_ACCESS) =>
        createHydraApp({
          prisma,
          ...(access ? { access } : {}),
          ...(compiled ? { engine: 'compiled', adapter } : {}),
        }),
    }
  }
  if (/^(mysql|mariadb):/.test(url)) {
    const [{ PrismaMariaDb }, { PrismaClient }, { createHydraApp }] = await Promise.all([
      import('@prisma/adapter-mariadb'),
      import('./.generated-mysql/prisma/client.js'),
      import('./.generated-mysql/hydra/index.js'),
    ])
    const adapter = shareAdapter(new PrismaMariaDb(url))
    const prisma = new PrismaClient({ adapter })
    return {
      prisma: prisma as unknown as SqlitePrisma,
      createHydraApp: (compiled: boolean, access?: typeof SCOPED_ACCESS) =>
        createHydraApp({
          prisma,
          ...(access ? { access } : {}),
          ...(compiled ? { engine: 'compiled', adapter } : {}),
        }),
    }
  }
  const [{ PrismaPg }, { PrismaClient }, { createHydraApp }] = await Promise.all([
    import('@prisma/adapter-pg'),
    import('./.generated-postgresql/prisma/client.js'),
    import('./.generated-postgresql/hydra/index.js'),
  ])
  const adapter = shareAdapter(new PrismaPg({ connectionString: url }))
  const prisma = new PrismaClient({ adapter })
  return {
    prisma: prisma as unknown as SqlitePrisma,
    createHydraApp: (compiled: boolean, access?: typeof SCOPED_ACCESS) =>
      createHydraApp({
        prisma,
        ...(access ? { access } : {}),
        ...(compiled ? { engine: 'compiled', adapter } : {}),
      }),
  }
}
type Prisma = Awaited<ReturnType<typeof prismaFor>>['prisma']

/** The row scope of the scoped pages (bench/peers-scoped.ts): every caller sees listed products. */
const SCOPED_ACCESS: {
  Product: {
    scope: () => { listed: boolean }
    shownWhere?: () => { price: { stock: { gte: number } } }
  }
} = { Product: { scope: () => ({ listed: true }) } }
/** The scoped pages' rule, and the price shown on the products in stock only (RULED_PAGE_PATH). */
const RULED_ACCESS: typeof SCOPED_ACCESS = {
  Product: {
    ...SCOPED_ACCESS.Product,
    shownWhere: () => ({ price: { stock: { gte: IN_STOCK } } }),
  },
}

type Fetch = Hono['fetch']
/**
 * The generated app, and under `/scoped` and `/ruled` the same app made with the scoped pages'
 * access rules:
 * each request goes to one of them by its path alone, so that neither app's middleware runs for
 * the other's requests.
 */
function generatedApps(
  make: (compiled: boolean, access?: typeof SCOPED_ACCESS) => Hono,
  compiled: boolean
): Fetch {
  const plain = make(compiled).fetch
  const scoped = new Hono().route('/scoped', make(compiled, SCOPED_ACCESS)).fetch
  const ruled = new Hono().route('/ruled', make(compiled, RULED_ACCESS)).fetch
  return (request, ...rest) => {
    const path = request.url.indexOf('/', 'http://'.length)
    if (request.url.startsWith('/scoped/', path)) return scoped(request, ...rest)
    return request.url.startsWith('/ruled/', path)
      ? ruled(request, ...rest)
      : plain(request, ...rest)
  }
}

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
  return app
}

/**
 * The hand-written Prisma routes, and the shaped page's (bench/peers-shaped.ts); bench/code-paths.ts
 * counts the code they run too.
 */
export function handwritten(prisma: Prisma) {
  const app = honoApp(plainReads(prisma))
  shapedRoute(app, prisma)
  scopedRoutes(app, prisma)
  listingRoute(app, prisma, {})
  return app.fetch
}

/** The hand-written routes' reads of the plain pages (no relations: the best write them alike). */
function plainReads(prisma: Prisma) {
  return {
    full: (page: number) =>
      prisma.$transaction([
        prisma.event.findMany({
          select: SELECT,
          orderBy: [...ORDER],
          skip: (page - 1) * PER_PAGE,
          take: PER_PAGE,
        }),
        prisma.event.count(),
      ]),
    partial: async (page: number): Promise<[EventRow[], boolean]> => {
      const rows = await prisma.event.findMany({
        select: SELECT,
        orderBy: [...ORDER],
        skip: (page - 1) * PER_PAGE,
        take: PER_PAGE + 1,
      })
      return [rows.slice(0, PER_PAGE), rows.length > PER_PAGE]
    },
    cursor: async (after: Position): Promise<[EventRow[], boolean]> => {
      const rows = await prisma.event.findMany({
        select: SELECT,
        orderBy: [...ORDER],
        cursor: { id: after.id },
        skip: 1,
        take: PER_PAGE + 1,
      })
      return [rows.slice(0, PER_PAGE), rows.length > PER_PAGE]
    },
  }
}

/** The generated app (the default engine) on the `relationJoins` copy's client (PostgreSQL). */
async function generatedJoins(url: string): Promise<Fetch> {
  const [{ PrismaPg }, { PrismaClient }, { createHydraApp }] = await Promise.all([
    import('@prisma/adapter-pg'),
    import('./.generated-postgresql-joins/prisma/client.js'),
    import('./.generated-postgresql-joins/hydra/index.js'),
  ])
  const prisma = new PrismaClient({
    adapter: shareAdapter(new PrismaPg({ connectionString: url })),
  })
  return generatedApps(
    (_compiled, access) => createHydraApp({ prisma, ...(access ? { access } : {}) }),
    false
  )
}

/**
 * The best hand-written routes (bench/peers-best.ts): on PostgreSQL, a client of the
 * `relationJoins` copy (the join strategy); on SQLite and MariaDB, which have none, the plain client.
 */
async function handwrittenBest(url: string) {
  const joins = url.startsWith('postgres')
  const prisma = joins
    ? await (async () => {
        const [{ PrismaPg }, { PrismaClient }] = await Promise.all([
          import('@prisma/adapter-pg'),
          import('./.generated-postgresql-joins/prisma/client.js'),
        ])
        return new PrismaClient({
          adapter: new PrismaPg({ connectionString: url }),
        }) as unknown as Prisma
      })()
    : (await prismaFor(url)).prisma
  const app = honoApp(plainReads(prisma))
  bestRoutes(app, prisma, joins)
  return app.fetch
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
  }).fetch
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
  }).fetch
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
  countStatements(url)
  if (kind === 'floor') return floor(url)
  serve({ fetch: await fetchFor(kind as Kind, url), port: 0, hostname: '127.0.0.1' }, (info) => {
    process.stdout.write(`listening ${info.port}\n`)
  })
}

/**
 * The generated app (PostgreSQL's generation) on the Prisma 8 back end of a client of the
 * contract bench:prepare emitted: the routes the Prisma 7 server serves, so that the two differ by
 * their back end alone (`prisma-hydra generate --contract` writes the same routes, typed for the
 * Prisma 8 client, which make this back end themselves).
 */
async function prisma8Apps(url: string): Promise<Fetch> {
  const [{ default: postgres }, { createHydraApp }, { prisma8BackEnd }] = await Promise.all([
    import('@prisma/orm-postgres/runtime'),
    import('./.generated-postgresql/hydra/index.js'),
    import('@prisma-hydra/runtime/generated'),
  ])
  const contractJson: unknown = JSON.parse(
    await readFile(new URL('./.generated-prisma8/contract.json', import.meta.url), 'utf8')
  )
  const db = postgres({ contractJson, url })
  // The generated routes are typed for a Prisma 7 client; at run time they take a back end.
  const prisma = prisma8BackEnd(db) as unknown as PostgresPrisma
  return generatedApps(
    (_compiled, access) => createHydraApp({ prisma, ...(access ? { access } : {}) }),
    true
  )
}

/** The Hono app of a kind served on @hono/node-server, as a fetch handler. */
async function fetchFor(kind: Kind, url: string) {
  if (kind === 'honoFloor') return honoApp(floorReads(url)).fetch
  if (kind === 'prisma8') return prisma8Apps(url)
  if (kind === 'handwrittenBest') return handwrittenBest(url)
  if (kind === 'generatedJoins') return generatedJoins(url)
  const { prisma, createHydraApp } = await prismaFor(url)
  if (kind === 'generated' || kind === 'compiled' || kind === 'compiledNode22')
    return generatedApps(createHydraApp, kind !== 'generated')
  if (kind === 'handwritten') return handwritten(prisma)
  return kind === 'pagination' ? withPagination(prisma) : relay(prisma)
}

// Run only as a program: bench/peers.ts imports the lists above.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await main()
}
