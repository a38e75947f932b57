/**
 * What bench/peers.ts measures: the servers of bench/peers-server.ts as its report names and
 * describes them, and the requests, each with the servers that serve it. `BENCH_PEERS_REQUESTS`
 * (request ids, comma-separated; all by default) selects some of them:
 *
 *   BENCH_PEERS_REQUESTS=scoped-page,ruled-page,scoped-sub-collection npm run bench:peers
 */
import { feedLink } from './peers-documents.js'
import { checkListing, listingPath } from './peers-listing.js'
import {
  checkRuledPage,
  checkScopedChildren,
  checkScopedPage,
  RULED_PAGE_PATH,
  SCOPED_CHILDREN_PATH,
  SCOPED_PAGE_PATH,
} from './peers-scoped.js'
import { KINDS, type Kind, SERVES } from './peers-server.js'
import { checkShaped, SHAPED_PATH } from './peers-shaped.js'
import { type PeerRequest, TARGETS } from './peers-targets.js'
import { eventRow } from './setup.js'

export const LABELS: Record<Kind, string> = {
  generated: 'generated',
  generatedJoins: 'generated, relationJoins client',
  compiled: 'generated, compiled engine',
  compiledNode22: 'generated, compiled engine, Node 22',
  prisma8: 'generated on Prisma 8, Node 22',
  handwritten: 'hand-written Prisma',
  handwrittenBest: 'hand-written Prisma at its best',
  pagination: 'prisma-extension-pagination',
  relay: 'devoxa relay',
  honoFloor: 'Hono floor (driver, plain SQL)',
  floor: 'node:http floor (driver, plain SQL)',
}

export const WHAT: Record<Kind, string> = {
  generated: '`createHydraApp` from the generated code, on @hono/node-server',
  generatedJoins:
    'the same app on a client generated with the `relationJoins` preview feature, whose nested reads Prisma then joins by default (PostgreSQL only): what the default engine asks of a client that has the join strategy',
  compiled:
    "the same app with `engine: 'compiled'`: the SQL the generator wrote, run on the client's own driver adapter (`shareAdapter`)",
  compiledNode22:
    'the compiled engine on Prisma 7 as above, its server started under Node 22 as the Prisma 8 server is (PostgreSQL only); every other server runs on the Node this benchmark runs on',
  prisma8:
    "the same generated app on the Prisma 8 back end (`prisma8BackEnd(db)`, the compiled engine's SQL run through the client's runtime, node-postgres's default pool of 10): a Prisma 8 client (`postgres({ contractJson, url })`, @prisma/orm-postgres 8.0.0-rc.13) of the contract `prisma contract emit` wrote from bench/schema.prisma's PostgreSQL copy, its server under Node 22 (Prisma 8's floor; PostgreSQL only)",
  handwritten:
    "Hono routes with the Prisma client as its documentation shows them: the page and `count()` in one `$transaction([...])`, `take` one more row for partial paging, Prisma's `cursor: { id }` with `skip: 1`",
  handwrittenBest:
    "the hand-written routes as a Prisma user who knows the client writes them (bench/peers-best.ts): on PostgreSQL a client with the `relationJoins` preview feature and `relationLoadStrategy: 'join'` on every read of relations (the page and its relations in one statement), the count beside the page in one `$transaction([...])`, the scoped sub-collection one `findUnique` of its seller with its first products and their filtered `_count`; on SQLite and MariaDB (no join strategy: Prisma 7.10 refuses it on MariaDB) the hand-written routes' reads; the plain pages as the hand-written routes read them",
  pagination:
    'Hono routes on prisma-extension-pagination: `withPages({ includePageCount: true })`, `withPages()`, `withCursor({ after })`',
  relay:
    "Hono route on @devoxa/prisma-relay-cursor-connection's `findManyCursorConnection` (cursor paging only: a Relay connection has no page numbers; it counts on every request)",
  honoFloor:
    "Hono routes on @hono/node-server answering from the node:http floor's reads (below) with the same documents: the floor of a user of this stack, the `compiled` engine's",
  floor:
    'node:http and the driver (better-sqlite3; node-postgres, a pool of 10 as `@prisma/adapter-pg` makes; `mariadb`, a pool of 10, `execute` with its prepared-statement cache) running plain SQL prepared once: `LIMIT`/`OFFSET` and `SELECT COUNT(*) FROM "Event"` (side by side on PostgreSQL and MariaDB, no transaction), a row-value keyset `WHERE ("createdAt", "id") < (…)` (bench/peers-floor.ts)',
}

const DEPTH = 0.3
const deepPosition = (rows: number) => eventRow(rows - Math.round(rows * DEPTH) + 1)
function kindsFor(mode: 'full' | 'partial' | 'cursor'): Kind[] {
  return KINDS.filter((kind) => SERVES[kind].includes(mode))
}
/** The pages users build: each answered by the generated routes and a hand-written route. */
const BUILT: readonly Kind[] = [
  'generated',
  'generatedJoins',
  'compiled',
  'compiledNode22',
  'prisma8',
  'handwritten',
  'handwrittenBest',
]

/** The requests measured; `by` lists the kinds that serve it. */
const REQUESTS: readonly PeerRequest[] = [
  { id: 'full', label: 'full, page 2', path: () => '/events?page=2', by: kindsFor('full') },
  {
    id: 'partial',
    label: 'partial, page 2',
    path: () => '/events/partial?page=2',
    by: kindsFor('partial'),
  },
  {
    id: 'cursor',
    label: `cursor, ${DEPTH * 100} % deep`,
    path: (rows) => feedLink(deepPosition(rows), 'lt'),
    by: kindsFor('cursor'),
  },
  {
    id: 'shaped',
    label:
      'shaped page 2 (filter through two relations, properties[], to-one and capped to-many embeds)',
    path: () => SHAPED_PATH,
    by: BUILT,
    data: (servers, path) => checkShaped(servers, path),
    bodyAtMost: TARGETS.shapedBody,
  },
  {
    id: 'scoped-page',
    label:
      'scoped page 2 (row scope, filter through two relations, properties[], two to-one embeds)',
    path: () => SCOPED_PAGE_PATH,
    by: BUILT,
    data: checkScopedPage,
  },
  {
    id: 'ruled-page',
    label:
      'ruled page 2 (the scoped page, its price shown on products in stock only: a shownWhere rule)',
    path: () => RULED_PAGE_PATH,
    by: BUILT,
    data: checkRuledPage,
  },
  {
    id: 'scoped-sub-collection',
    label:
      "scoped sub-collection (a seller's products under the row scope, properties[], a to-one embed)",
    path: () => SCOPED_CHILDREN_PATH,
    by: BUILT,
    data: checkScopedChildren,
  },
  {
    id: 'listing',
    label:
      'listing (one product, its seller and category embedded, its first three variants of four: an item with a capped to-many embed)',
    path: listingPath,
    by: BUILT,
    data: (servers, path) => checkListing(servers, path),
  },
  // The generated route's cheaper totals: no peer has them, so they are compared with the partial
  // page (no count at all) of the same run. An estimate exists on PostgreSQL only.
  {
    id: 'cached',
    label: 'full, page 2, totals: cached',
    path: () => '/events/cached?page=2',
    by: ['generated'],
  },
  {
    id: 'estimated',
    label: 'full, page 2, totals: estimated',
    path: () => '/events/estimated?page=2',
    by: ['generated'],
    on: ['postgresql'],
  },
]

/** The requests of the run: those `BENCH_PEERS_REQUESTS` names, or all; throws on an unknown id. */
export function selectedRequests(names: string | undefined): PeerRequest[] {
  if (!names) return [...REQUESTS]
  const ids = names.split(',').map((id) => id.trim())
  const unknown = ids.filter((id) => !REQUESTS.some((request) => request.id === id))
  if (unknown.length > 0)
    throw new Error(
      `BENCH_PEERS_REQUESTS: no request ${unknown.join(', ')} (${REQUESTS.map((request) => request.id).join(', ')})`
    )
  return REQUESTS.filter((request) => ids.includes(request.id))
}
