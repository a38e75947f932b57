/**
 * Filters and client ordering (docs/filters.md) end to end on test/fixtures/filters: each filter
 * kind under full, partial, unpaged and cursor paging. The expected rows are computed here from
 * the rows inserted, never by the database: the members are exactly the filtered rows in order,
 * walks by `next` (and `previous` on cursors) visit each once, counts match, and every link keeps
 * the filters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHydraApp } from '#fixtures/filters/hydra/index.js'
import { PrismaClient } from '#fixtures/filters/prisma/client.js'
import {
  createAdapter,
  freshDatabase,
  get,
  ids,
  startServer,
  TEST_DATABASE,
} from './support/harness.js'
import { checkedAgainstOpenApi } from './support/openapi-check.js'

const SCHEMA = new URL('./fixtures/filters/schema.prisma', import.meta.url).pathname

interface Item {
  id: number
  title: string
  code: string
  tag: string
  words: string
  genre: 'FICTION' | 'SCIENCE' | 'POETRY'
  price: string
  pages: number
  publishedAt: Date
  returnedAt: Date | null
  available: boolean
  ownerId: number
}

const TITLES = ['River', 'silver', 'Clover', 'Ever', '50% off', 'a_b', 'Dune', 'RIVERS']
const CODES = ['AB-1', 'XAB-2', 'ab-3', 'CD-4']
const TAGS = ['one-x', 'two-y', 'x-three', 'four-x']
const WORDS = ['garden path', 'old garden', 'cigar box', 'Garden gate', 'the gardener']
const GENRES = ['FICTION', 'SCIENCE', 'POETRY'] as const
const DAY = 86_400_000

/** mulberry32, so every run and database sees the same rows. */
function random(seed: number): () => number {
  let state = seed
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const next = random(16)
const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)] as T
const ITEMS: Item[] = Array.from({ length: 64 }, (_, index) => ({
  id: index + 1,
  title: `${pick(TITLES)} ${index % 7}`,
  code: pick(CODES),
  tag: pick(TAGS),
  words: pick(WORDS),
  genre: pick(GENRES),
  // Few distinct prices and dates: ties everywhere, for the tie-breaker to matter.
  price: (5 + Math.floor(next() * 6) * 2.75).toFixed(2),
  pages: 50 * (1 + Math.floor(next() * 5)),
  publishedAt: new Date(Date.UTC(2024, 0, 1) + Math.floor(next() * 12) * 15 * DAY),
  returnedAt: next() < 0.3 ? null : new Date(Date.UTC(2024, 0, 1) + Math.floor(next() * 200) * DAY),
  available: next() < 0.5,
  ownerId: 1 + (index % 6),
}))

type Direction = 'asc' | 'desc'
/** An item's field, or a field of its owner (`owner.name`, ordered through the relation). */
type Order = Array<[keyof Item | `owner.${keyof Owner}`, Direction]>

function compare(a: unknown, b: unknown): number {
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime()
  if (typeof a === 'number' && typeof b === 'number') return a - b
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0
}

/** The expected ids: the rows `keep` accepts, in `order` (values compared as numbers for prices). */
function expected(keep: (item: Item) => boolean, order: Order): number[] {
  const value = (item: Item, field: Order[number][0]) => {
    const raw = field.startsWith('owner.')
      ? ownerOf(item)[field.slice('owner.'.length) as keyof Owner]
      : field === 'price'
        ? Number(item.price)
        : item[field as keyof Item]
    // MariaDB sorts text by its collation, which ignores case and accents (docs/databases.md).
    return TEST_DATABASE === 'mysql' && typeof raw === 'string' ? fold(raw) : raw
  }
  return ITEMS.filter(keep)
    .sort((a, b) => {
      for (const [field, direction] of order) {
        const difference = compare(value(a, field), value(b, field))
        if (difference !== 0) return direction === 'asc' ? difference : -difference
      }
      return 0
    })
    .map((item) => item.id)
}

interface Owner {
  id: number
  name: string
  score: number
  joinedAt: Date | null
  verified: boolean
}

const OWNERS: Owner[] = [
  { id: 1, name: 'Ann Lee', score: 3, joinedAt: new Date('2023-02-01Z'), verified: true },
  { id: 2, name: 'Bob Stone', score: 5, joinedAt: null, verified: false },
  { id: 3, name: 'ann marie', score: 1, joinedAt: new Date('2023-09-15Z'), verified: true },
  { id: 4, name: 'Carl', score: 4, joinedAt: new Date('2024-01-10Z'), verified: false },
  { id: 5, name: 'Dana Ann', score: 2, joinedAt: null, verified: true },
  { id: 6, name: 'Eve', score: 5, joinedAt: new Date('2022-05-05Z'), verified: true },
]

interface Note {
  id: number
  text: string
  stars: number
  itemId: number
}

const NOTE_TEXTS = ['good', 'bad', 'meh']
/** Zero to three notes per item: a to-many relation filtered with "one of them matches". */
const NOTES: Note[] = ITEMS.flatMap((item) =>
  Array.from({ length: Math.floor(next() * 4) }, () => ({
    text: pick(NOTE_TEXTS),
    stars: 1 + Math.floor(next() * 5),
    itemId: item.id,
  }))
).map((note, index) => ({ id: index + 1, ...note }))

const ownerOf = (item: Item) => OWNERS.find((owner) => owner.id === item.ownerId) as Owner
const notesOf = (item: Item) => NOTES.filter((note) => note.itemId === item.id)

const BY_ID: Order = [['id', 'asc']]
const FEED: Order = [
  ['publishedAt', 'desc'],
  ['id', 'desc'],
]
const at = (text: string) => new Date(text).getTime()
/**
 * Text as the database's LIKE compares it (docs/filters.md): SQLite ignores the case of ASCII
 * letters, MariaDB's utf8mb4_unicode_ci ignores case and accents, PostgreSQL compares as written.
 */
const fold = (text: string) => {
  if (TEST_DATABASE === 'sqlite') return text.replace(/[A-Z]/g, (letter) => letter.toLowerCase())
  if (TEST_DATABASE === 'mysql') return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
  return text
}
const like = (text: string, part: string) => fold(text).includes(fold(part))
const likeStart = (text: string, part: string) => fold(text).startsWith(fold(part))
const likeEnd = (text: string, part: string) => fold(text).endsWith(fold(part))

interface Case {
  name: string
  query: string
  keep: (item: Item) => boolean
  /** The client order the query asks for; the operation's own order otherwise. */
  order?: Order
  /** Whether the cursor operation (/items/feed) declares these parameters too. */
  feed?: boolean
}

const CASES: Case[] = [
  { name: 'search partial', query: 'title=iver', keep: (i) => like(i.title, 'iver'), feed: true },
  {
    name: 'search partial, LIKE wildcards literal',
    query: 'title=%25',
    keep: (i) => i.title.includes('%'),
    feed: true,
  },
  {
    name: 'search partial, underscore literal',
    query: 'title=_',
    keep: (i) => i.title.includes('_'),
  },
  { name: 'search start', query: 'code=AB', keep: (i) => likeStart(i.code, 'AB') },
  { name: 'search end', query: 'tag=-x', keep: (i) => likeEnd(i.tag, '-x') },
  {
    name: 'search word_start',
    query: 'words=gar',
    keep: (i) =>
      i.words.split(' ').some((word) => likeStart(word, 'gar')) && !i.words.startsWith('cigar'),
  },
  {
    name: 'search exact, several enum values',
    query: 'genre[]=FICTION&genre[]=POETRY',
    keep: (i) => i.genre === 'FICTION' || i.genre === 'POETRY',
    feed: true,
  },
  {
    name: 'relation by IRI',
    query: 'owner=/owners/2',
    keep: (i) => i.ownerId === 2,
    feed: true,
  },
  {
    name: 'relation by ids',
    query: 'owner[]=1&owner[]=3',
    keep: (i) => i.ownerId === 1 || i.ownerId === 3,
    feed: true,
  },
  {
    name: 'range between',
    query: 'price[between]=10..16',
    keep: (i) => Number(i.price) >= 10 && Number(i.price) <= 16,
  },
  {
    name: 'range gt on a decimal',
    query: 'price[gt]=12.75',
    keep: (i) => Number(i.price) > 12.75,
  },
  {
    name: 'range lt and gte',
    query: 'pages[gte]=100&pages[lt]=200',
    keep: (i) => i.pages >= 100 && i.pages < 200,
    feed: true,
  },
  {
    name: 'numeric, several values',
    query: 'pages[]=100&pages[]=250',
    keep: (i) => i.pages === 100 || i.pages === 250,
    feed: true,
  },
  {
    name: 'date after and strictly before',
    query: 'publishedAt[after]=2024-03-01&publishedAt[strictly_before]=2024-06-01T00:00:00Z',
    keep: (i) =>
      i.publishedAt.getTime() >= at('2024-03-01Z') && i.publishedAt.getTime() < at('2024-06-01Z'),
    feed: true,
  },
  {
    name: 'date with nulls included after',
    query: 'returnedAt[after]=2024-04-01',
    keep: (i) => i.returnedAt === null || i.returnedAt.getTime() >= at('2024-04-01Z'),
  },
  { name: 'boolean', query: 'available=false', keep: (i) => !i.available, feed: true },
  {
    name: 'exists',
    query: 'exists[returnedAt]=false',
    keep: (i) => i.returnedAt === null,
    feed: true,
  },
  {
    name: 'through a to-one relation, partial',
    query: 'owner.name=ann',
    keep: (i) => like(ownerOf(i).name, 'ann'),
    feed: true,
  },
  {
    name: 'through a to-one relation, range and boolean',
    query: 'owner.score[gte]=3&owner.verified=true',
    keep: (i) => ownerOf(i).score >= 3 && ownerOf(i).verified,
  },
  {
    name: 'through a to-one relation, date',
    query: 'owner.joinedAt[strictly_before]=2023-12-31',
    keep: (i) => {
      const joined = ownerOf(i).joinedAt
      return joined !== null && joined.getTime() < at('2023-12-31Z')
    },
    feed: true,
  },
  {
    name: 'through a to-one relation, exists',
    query: 'exists[owner.joinedAt]=false',
    keep: (i) => ownerOf(i).joinedAt === null,
    feed: true,
  },
  {
    name: 'through a to-many relation: one note matches every condition on notes',
    query: 'notes.text=good&notes.stars[gte]=4',
    keep: (i) => notesOf(i).some((note) => note.text === 'good' && note.stars >= 4),
    feed: true,
  },
  {
    name: 'through a to-many relation, several values',
    query: 'notes.text[]=bad&notes.text[]=meh',
    keep: (i) => notesOf(i).some((note) => note.text === 'bad' || note.text === 'meh'),
    feed: true,
  },
  {
    name: 'through a to-many relation, numeric',
    query: 'notes.stars=5',
    keep: (i) => notesOf(i).some((note) => note.stars === 5),
  },
  {
    name: 'a client order through a to-one relation',
    query: 'genre=SCIENCE&order[owner.name]=desc',
    keep: (i) => i.genre === 'SCIENCE',
    order: [
      ['owner.name', 'desc'],
      ['id', 'asc'],
    ],
  },
  {
    name: 'a client order through a relation, then an own field',
    query: 'available=true&order[owner.score]=asc&order[price]=desc',
    keep: (i) => i.available,
    order: [
      ['owner.score', 'asc'],
      ['price', 'desc'],
      ['id', 'asc'],
    ],
  },
  {
    name: 'several filters and a client order',
    query: 'genre=FICTION&available=true&order[price]=desc&order[title]=asc',
    keep: (i) => i.genre === 'FICTION' && i.available,
    order: [
      ['price', 'desc'],
      ['title', 'asc'],
      ['id', 'asc'],
    ],
  },
  {
    name: 'a client order on a date, a filter on another field',
    query: 'exists[returnedAt]=true&order[publishedAt]=asc',
    keep: (i) => i.returnedAt !== null,
    order: [
      ['publishedAt', 'asc'],
      ['id', 'asc'],
    ],
    feed: true,
  },
]

let prisma: PrismaClient
let origin: string
let close: () => Promise<void>
/** Every response of the file, checked against the app's OpenAPI document. */
let openApi: ReturnType<typeof checkedAgainstOpenApi>
let remove: () => Promise<void>

beforeAll(async () => {
  const database = await freshDatabase(SCHEMA)
  remove = database.remove
  prisma = new PrismaClient({ adapter: createAdapter(database.url) })
  await prisma.owner.createMany({ data: OWNERS })
  await prisma.item.createMany({ data: ITEMS })
  await prisma.note.createMany({ data: NOTES })
  // Batches of 4: unpaged responses are read across many batch boundaries.
  openApi = checkedAgainstOpenApi(createHydraApp({ prisma, batchSize: 4 }).fetch)
  ;({ origin, close } = await startServer(openApi.fetch))
})

afterAll(async () => {
  await close?.()
  await prisma?.$disconnect()
  await remove?.()
})

const view = (body: Record<string, unknown>) => (body['hydra:view'] ?? {}) as Record<string, string>

/** Follows `link` from `start`; every page must answer 200 and keep the filter parameters. */
async function walk(
  start: string,
  link: 'hydra:next' | 'hydra:previous',
  keeps: string
): Promise<{ pages: unknown[][]; totals: unknown[]; last: string }> {
  const pages: unknown[][] = []
  const totals: unknown[] = []
  let last = start
  let url: string | undefined = start
  while (url) {
    const response = await get(origin, url)
    expect(response.status, `${url}: ${JSON.stringify(response.body)}`).toBe(200)
    pages.push(ids(response.body))
    totals.push(response.body['hydra:totalItems'])
    for (const key of ['hydra:first', 'hydra:last', 'hydra:next', 'hydra:previous']) {
      const target = view(response.body)[key]
      if (target) expect(decodeURIComponent(target)).toContain(keeps)
    }
    last = url
    url = view(response.body)[link]
    expect(pages.length).toBeLessThan(100)
  }
  return { pages, totals, last }
}

/** The first parameter of a query, decoded, as links write it (lists as `name[]=`). */
function firstParameter(query: string): string {
  return decodeURIComponent(query.split('&')[0] as string).replace(/\[\d+\]=/, '[]=')
}

describe.each(CASES)('$name ($query)', ({ query, keep, order, feed }) => {
  const rows = expected(keep, order ?? BY_ID)
  const keeps = firstParameter(query)

  it('full paging: the filtered rows in order, counted, every link keeping the filters', async () => {
    expect(rows.length).toBeGreaterThan(0)
    expect(rows.length).toBeLessThan(ITEMS.length)
    const { pages, totals } = await walk(`/items?${query}&itemsPerPage=5`, 'hydra:next', keeps)
    expect(pages.flat()).toEqual(rows)
    expect(new Set(totals)).toEqual(new Set([rows.length]))
    expect(pages.length).toBe(Math.ceil(rows.length / 5))
  })

  it('partial paging: the filtered rows in order, no count', async () => {
    const { pages, totals } = await walk(
      `/items?${query}&itemsPerPage=4&partial=true`,
      'hydra:next',
      keeps
    )
    expect(pages.flat()).toEqual(rows)
    expect(new Set(totals)).toEqual(new Set([undefined]))
  })

  it('unpaged (streamed): the filtered rows in order', async () => {
    const response = await get(origin, `/items?${query}&pagination=false`)
    expect(response.status).toBe(200)
    expect(ids(response.body)).toEqual(rows)
    expect(response.body['hydra:totalItems']).toBe(rows.length)
  })

  it.runIf(feed)(
    'cursor paging: next and previous walks visit each filtered row once',
    async () => {
      const feedRows = expected(keep, order ?? FEED)
      const forward = await walk(`/items/feed?${query}`, 'hydra:next', keeps)
      expect(forward.pages.flat()).toEqual(feedRows)
      const back = await walk(forward.last, 'hydra:previous', keeps)
      expect(back.pages.reverse().flat()).toEqual(feedRows)
    }
  )
})

describe('strict parameters', () => {
  it.each([
    ['/items?price[gt]=1O', 'The "price[gt]" parameter must be a decimal number, "1O" given.'],
    [
      '/items?genre=NOVEL',
      'The "genre" parameter must be one of FICTION, SCIENCE, POETRY, "NOVEL" given.',
    ],
    [
      '/items?owner=/items/3',
      'The "owner" parameter must be an IRI of /owners/… or an id, "/items/3" given.',
    ],
    [
      '/items?publishedAt[after]=2024-02-30',
      'The "publishedAt[after]" parameter must be an ISO 8601 date (2024-01-31) or date-time (2024-01-31T12:00:00Z), "2024-02-30" given.',
    ],
    [
      '/items?order[code]=asc',
      'The "order[code]" parameter is not known: "order" is given as order[field]=asc|desc, field one of title, price, pages, publishedAt, returnedAt, owner.name, owner.score, id.',
    ],
    [
      '/items?available=maybe',
      'The "available" parameter must be a boolean (1, true, on, yes, 0, false, off or no), "maybe" given.',
    ],
    [
      '/items/feed?order[title]=asc',
      'The "order[title]" parameter is not known: "order" is given as order[field]=asc|desc, field one of price, publishedAt, id.',
    ],
    [
      '/items?owner.score[gt]=many',
      'The "owner.score[gt]" parameter must be an integer, "many" given.',
    ],
    [
      '/items?notes.stars[]=1&notes.stars[]=x',
      'The "notes.stars[]" parameter must be an integer, "x" given.',
    ],
    [
      '/items?exists[owner.joinedAt]=maybe',
      'The "exists[owner.joinedAt]" parameter must be a boolean (1, true, on, yes, 0, false, off or no), "maybe" given.',
    ],
    [
      '/items?owner.joinedAt[after]=yesterday',
      'The "owner.joinedAt[after]" parameter must be an ISO 8601 date (2024-01-31) or date-time (2024-01-31T12:00:00Z), "yesterday" given.',
    ],
    [
      '/items/feed?order[owner.name]=asc',
      'The "order[owner.name]" parameter is not known: "order" is given as order[field]=asc|desc, field one of price, publishedAt, id.',
    ],
    [
      '/items?pages=3000000000',
      'The "pages" parameter must be a 32-bit integer, "3000000000" given.',
    ],
  ])('%s is a 400 naming the parameter', async (url, detail) => {
    const response = await get(origin, url)
    expect(response.status).toBe(400)
    expect(response.contentType).toContain('application/problem+json')
    expect(response.body.detail).toBe(detail)
  })

  // SQLite's LIKE has no escape character unless named: its searches holding %, _ or \ are read
  // by compiled SQL (`LIKE … ESCAPE`), through relations too (EXISTS).
  it('% and _ in a search through a relation are matched literally', async () => {
    const total = async (url: string) => {
      const response = await get(origin, url)
      expect(response.status, url).toBe(200)
      return response.body['hydra:totalItems']
    }
    // Read as a wildcard, `_` would match Ann Lee's space.
    expect(await total('/items?owner.name=Ann%20Lee')).toBeGreaterThan(0)
    expect(await total('/items?owner.name=Ann_Lee')).toBe(0)
    expect(await total('/items?owner.name=50%25')).toBe(0)
    const feed = await get(origin, '/items/feed?owner.name=Ann_Lee')
    expect(feed.status).toBe(200)
    expect(feed.body['hydra:member']).toEqual([])
  })

  it('parameters an operation does not declare are ignored', async () => {
    const response = await get(origin, '/owners?order[name]=desc&name=x')
    expect(response.status).toBe(200)
    expect(ids(response.body)).toEqual([1, 2, 3, 4, 5, 6])
  })
})

describe('cursor paging with a client order and a date bound on the key field', () => {
  it('walks the filtered rows by price, every row once, the date bound kept in every link', async () => {
    const query = 'order[price]=asc&publishedAt[after]=2024-02-01'
    const keep = (i: Item) => i.publishedAt.getTime() >= at('2024-02-01Z')
    const rows = expected(keep, [
      ['price', 'asc'],
      ['id', 'asc'],
    ])
    const forward = await walk(
      `/items/feed?${query}`,
      'hydra:next',
      'publishedAt[after]=2024-02-01'
    )
    expect(forward.pages.flat()).toEqual(rows)
    expect(forward.last).toContain('price%5Bgt%5D=')
    const back = await walk(forward.last, 'hydra:previous', 'publishedAt[after]=2024-02-01')
    expect(back.pages.reverse().flat()).toEqual(rows)
  })
})

describe('an unpaged operation ordered by a foreign key the resource does not show', () => {
  it('streams every note once, by item then id, across batches of 4', async () => {
    const rows = [...NOTES]
      .sort((a, b) => b.itemId - a.itemId || a.id - b.id)
      .map((note) => note.id)
    expect(rows.length).toBeGreaterThan(8)
    const response = await get(origin, '/notes/by-item')
    expect(response.status).toBe(200)
    expect(ids(response.body)).toEqual(rows)
    expect(response.body['hydra:totalItems']).toBe(NOTES.length)
  })
})

describe('hydra:search through relations', () => {
  const NESTED = [
    'owner.name',
    'notes.text',
    'notes.text[]',
    'owner.score[gte]',
    'notes.stars[between]',
    'notes.stars[]',
    'owner.joinedAt[strictly_before]',
    'owner.verified',
    'exists[owner.joinedAt]',
    'order[owner.name]',
    'order[owner.score]',
  ]

  it('responses map each nested parameter to its dotted property, as API Platform', async () => {
    const response = await get(origin, '/items')
    const search = response.body['hydra:search'] as Record<string, unknown>
    const mapping = search['hydra:mapping'] as Array<Record<string, unknown>>
    for (const variable of NESTED) {
      const entry = mapping.find((candidate) => candidate.variable === variable)
      const field = variable.replace(/^(?:exists|order)\[(.*)\]$/, '$1').replace(/\[.*\]$/, '')
      expect(entry, variable).toEqual({
        '@type': 'IriTemplateMapping',
        variable,
        // exists[…] sets whether the field has a value, a property of its own (docs/hydra.md).
        property: variable.startsWith('exists[') ? `${field}/exists` : field,
        required: false,
      })
    }
    expect(search['hydra:template']).toContain(',owner.name,')
    // The cursor feed lists its filters through relations and no order through one.
    const feed = (await get(origin, '/items/feed')).body['hydra:search'] as Record<string, string>
    expect(feed['hydra:template']).toContain('notes.stars[gte]')
    expect(feed['hydra:template']).not.toContain('order[owner.name]')
  })

  it('the documentation lists them in each collection operation', async () => {
    const docs = (await get(origin, '/docs.jsonld')).body as Record<string, unknown>
    const text = JSON.stringify(docs)
    const templates = [...text.matchAll(/"hydra:template":"([^"]+)"/g)].map((match) => match[1])
    const items = templates.find((template) => template?.startsWith('/items{'))
    for (const variable of NESTED) expect(items).toContain(variable)
  })
})

it("answers every request of this file as the API's OpenAPI document says", async () => {
  const result = await openApi.result()
  expect(result.violations).toEqual([])
  expect(result.checked).toBeGreaterThan(20)
})
