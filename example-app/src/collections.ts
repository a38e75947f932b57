/**
 * Collections the generator does not write, served with the same parameters, errors, links and
 * rendering as generated ones (docs/custom-collections.md):
 * - `/genres`, computed in memory (a Prisma `groupBy`) and paged by the array paginator;
 * - `/releases`, an async iterable read line by line from a feed file (or its bundled text on
 *   Cloudflare Workers), paged by the iterable
 *   paginator: partial paging by default (it stops reading one release past the page), full paging
 *   on request, and the whole feed streamed with `?pagination=false`;
 * - `popularBooks`, a data provider that replaces the query of the generated `/books/popular`.
 */
import {
  type CollectionHandlerOptions,
  type CollectionProvider,
  customPaging,
  customQuery,
  type DatabaseTimeouts,
  type DocumentedType,
  type FilterCondition,
  fullPaginator,
  type HydraLogger,
  hydraCollection,
  methodNotAllowed,
  mountPrefix,
  type OrderEntry,
  paginateArray,
  paginateIterable,
  partialPaginator,
  serveContext,
} from '@prisma-hydra/runtime'
import { type Context, Hono } from 'hono'
import { type BookRow, bookSelect } from '#generated/hydra/index.js'
import { Genre, type Prisma, type PrismaClient } from '#generated/prisma/client.js'
import { feedLines, RELEASES_FEED, type ReleasesFeed } from './releases-feed.js'

export { RELEASES_FEED, type ReleasesFeed } from './releases-feed.js'

const GENRE_NAMES = Object.values(Genre)

/** Whether a genre meets one condition of the request (those `/genres` declares). */
function genreMatches(genre: GenreMember, condition: FilterCondition): boolean {
  switch (condition.kind) {
    case 'search':
      return condition.values.includes(genre.name)
    case 'range': {
      // The route read the bounds as the declared type, Int: numbers.
      if (condition.operator === 'between') {
        const [low, high] = condition.value as [number, number]
        return genre.books >= low && genre.books <= high
      }
      const bound = condition.value as number
      const { operator } = condition
      if (operator === 'gt') return genre.books > bound
      if (operator === 'gte') return genre.books >= bound
      if (operator === 'lt') return genre.books < bound
      return genre.books <= bound
    }
    default:
      throw new TypeError(`/genres declares no ${condition.kind} filter`)
  }
}

/** Genres in the client's order (the name last, as declared `id`), by name without one. */
function compareGenres(order: readonly OrderEntry[]) {
  const keys: readonly OrderEntry[] =
    order.length > 0 ? order : [{ field: 'name', direction: 'asc' }]
  return (a: GenreMember, b: GenreMember): number => {
    for (const { field, direction } of keys) {
      const [x, y] = field === 'books' ? [a.books, b.books] : [a.name, b.name]
      if (x !== y) return (x < y ? -1 : 1) * (direction === 'asc' ? 1 : -1)
    }
    return 0
  }
}

/** A genre with the number of books in it. */
export interface GenreMember {
  '@id': string
  '@type': 'Genre'
  name: string
  books: number
}

/** An upcoming release announced in the publishers' feed. */
export interface ReleaseMember {
  '@id': string
  '@type': 'Release'
  position: number
  title: string
  author: string
  releaseDate: string
}

/** The feed, one release per line, read only as far as it is consumed (src/releases-feed.ts). */
async function* readReleases(
  feed: ReleasesFeed,
  base: string
): AsyncGenerator<ReleaseMember, void, undefined> {
  let position = 0
  for await (const line of feedLines(feed)) {
    if (line.trim() === '') continue
    position++
    const { title, author, releaseDate } = JSON.parse(line) as Omit<
      ReleaseMember,
      '@id' | '@type' | 'position'
    >
    yield {
      '@id': `${base}/releases#${position}`,
      '@type': 'Release',
      position,
      title,
      author,
      releaseDate,
    }
  }
}

const GENRES = {
  context: '/contexts/Genre',
  paging: { itemsPerPage: 2, clientItemsPerPage: true },
  // Counts that may be a minute old in any cache (docs/custom-collections.md).
  cacheControl: 'public, max-age=60',
  // `name=FICTION` (or `name[]=…`), `books[gte]=3`, `order[books]=desc`: checked by the route (a
  // 400 on a malformed value), applied by the handler.
  query: {
    filters: [
      { kind: 'search', field: 'name', strategy: 'exact', type: 'Enum', enumValues: GENRE_NAMES },
      { kind: 'range', field: 'books', type: 'Int' },
    ],
    order: [{ field: 'books', type: 'Int' }],
    id: { field: 'name', type: 'String' },
  },
} satisfies CollectionHandlerOptions

const RELEASES = {
  context: '/contexts/Release',
  paging: { itemsPerPage: 10, partial: true, clientPartial: true, clientEnabled: true },
} satisfies CollectionHandlerOptions

const genre = {
  name: 'Genre',
  description: 'A genre of the catalogue with the number of books in it.',
  fields: [
    { name: 'name', type: 'String' },
    { name: 'books', type: 'Int' },
  ],
}

const release = {
  name: 'Release',
  iri: 'https://schema.org/PublicationEvent',
  description: "An upcoming release announced in the publishers' feed.",
  fields: [
    { name: 'position', type: 'Int', iri: 'https://schema.org/position' },
    { name: 'title', type: 'String', iri: 'https://schema.org/name' },
    { name: 'author', type: 'String', iri: 'https://schema.org/author' },
    { name: 'releaseDate', type: 'String', iri: 'https://schema.org/startDate' },
  ],
}

/** The custom collections' types, for the entrypoint and the API documentation. */
export const customTypes: DocumentedType[] = [
  {
    ...genre,
    collections: [
      {
        name: 'genre',
        path: '/genres',
        paging: customPaging(GENRES.paging),
        query: customQuery(GENRES.query),
      },
    ],
  },
  {
    ...release,
    collections: [{ name: 'release', path: '/releases', paging: customPaging(RELEASES.paging) }],
  },
]

/**
 * The custom collections and their contexts, as a Hono app to mount beside the generated one;
 * `operations` are the app's logger and tracing switch (docs/operations.md).
 */
export function createCollectionsApp(
  prisma: PrismaClient,
  feed: ReleasesFeed = RELEASES_FEED,
  timeouts?: DatabaseTimeouts,
  operations: { logger?: HydraLogger | undefined; tracing?: boolean | undefined } = {}
) {
  return new Hono()
    .get(
      '/genres',
      // Its outages are logged with the generated routes' over the same client.
      hydraCollection(
        { ...GENRES, ...operations, timeouts, database: prisma },
        async (request, c, { filters, order }) => {
          const counts = await prisma.book.groupBy({ by: ['genre'], _count: { _all: true } })
          const base = mountPrefix(c)
          const genres = counts
            .map(
              (row): GenreMember => ({
                '@id': `${base}/genres#${row.genre}`,
                '@type': 'Genre',
                name: row.genre,
                books: row._count._all,
              })
            )
            .filter((genre) => filters.every((condition) => genreMatches(genre, condition)))
            // Sorted here: ORDER BY on an enum column follows the enum's declaration order on
            // PostgreSQL but its text on SQLite.
            .sort(compareGenres(order))
          return paginateArray(genres, request)
        }
      )
    )
    .get(
      '/releases',
      hydraCollection({ ...RELEASES, ...operations }, (request, c) =>
        paginateIterable(readReleases(feed, mountPrefix(c)), request)
      )
    )
    .get('/contexts/Genre', (c) => serveContext(c, genre))
    .get('/contexts/Release', (c) => serveContext(c, release))
    .all('/genres', methodNotAllowed)
    .all('/releases', methodNotAllowed)
    .all('/contexts/Genre', methodNotAllowed)
    .all('/contexts/Release', methodNotAllowed)
}

/**
 * The provider of `/books/popular`: books ranked by their number of loans (most first, then by
 * id), read with a Prisma `groupBy` instead of the generated query. Books never borrowed are not
 * in the ranking. The client's filters arrive as the `where` the generated query would use. The
 * ranking, its books and the count are read in one snapshot, as the generated page and count
 * are: loans written meanwhile never make a page disagree with its total.
 */
export function popularBooks(
  prisma: PrismaClient
): CollectionProvider<BookRow, Context, Prisma.BookWhereInput> {
  return async (request, _c, { where }, snapshot) => {
    const rank = async (tx: Prisma.TransactionClient, window: { skip?: number; take?: number }) => {
      const ranking = await tx.loan.groupBy({
        by: ['bookId'],
        // The client's filters, as the generated query would apply them to books.
        ...(where ? { where: { book: where } } : {}),
        orderBy: [{ _count: { bookId: 'desc' } }, { bookId: 'asc' }],
        ...window,
      })
      const rows = await tx.book.findMany({
        where: { id: { in: ranking.map((entry) => entry.bookId) } },
        select: bookSelect,
      })
      const byId = new Map(rows.map((row) => [row.id, row]))
      return ranking.flatMap((entry) => byId.get(entry.bookId) ?? [])
    }
    if (!request.paged) return snapshot(prisma, (tx) => rank(tx, {}))
    const { offset, itemsPerPage } = request
    if (request.partial) {
      const rows = await snapshot(prisma, (tx) =>
        rank(tx, { skip: offset, take: itemsPerPage + 1 })
      )
      return partialPaginator(request, rows.slice(0, itemsPerPage), rows.length > itemsPerPage)
    }
    const borrowed = { loans: { some: {} } }
    const [rows, totalItems] = await snapshot(prisma, async (tx) => [
      itemsPerPage === 0 ? [] : await rank(tx, { skip: offset, take: itemsPerPage }),
      await tx.book.count({ where: where ? { AND: [borrowed, where] } : borrowed }),
    ])
    return fullPaginator(request, rows, totalItems)
  }
}
