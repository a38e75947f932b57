/**
 * The case-insensitive search strategies (`iexact`, `ipartial`, `istart`, `iend`, `iword_start`)
 * end to end on test/fixtures/filters (`/items/caseless`), on every database and both engines:
 * for ASCII text the same rows everywhere, `%`, `_` and backslashes matched literally, an exact
 * match exact (no trailing space ignored); beyond ASCII, what docs/filters.md#case-sensitivity
 * says of each database. Every request is sent to the app on the `prisma` engine and to the same
 * app on the `compiled` engine, whose answer must be the same bytes.
 */
import { shareAdapter } from '@prisma-hydra/runtime'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHydraApp } from '#fixtures/filters/hydra/index.js'
import { PrismaClient } from '#fixtures/filters/prisma/client.js'
import {
  createAdapter,
  expectSameOnBothEngines,
  freshDatabase,
  get,
  ids,
  startServer,
  TEST_DATABASE,
} from './support/harness.js'

const SCHEMA = new URL('./fixtures/filters/schema.prisma', import.meta.url).pathname

const OWNERS = ['Ann Lee', 'ANN', 'ann_b', 'annxb', 'Bob', 'bobby'].map((name, index) => ({
  id: index + 1,
  name,
  score: 1,
  verified: true,
}))

/** One row per code; the other fields cycle through their own lists. */
const CODES = [
  'AB-1',
  'ab-1',
  'ab-1 ',
  'Ab-10',
  'a_b',
  'A_B',
  'axb',
  '50%',
  '50x',
  'back\\slash',
  'BACK\\SLASH',
  'École',
  'école',
  'ecole',
]
const TITLES = ['River Song', 'silver lining', 'RIVERS', '50% off', '50x off', 'a_b c', 'axb c']
const TITLES_2 = ['back\\slash', 'École normale', 'ÉCOLE', 'ecole', 'river', 'Dune', 'x']
const TAGS = ['one-X', 'two-x', 'X-three', 'x', 'four-x%', 'fivex_']
const WORDS = ['Garden path', 'old GARDEN', 'cigar box', 'the gardener', 'Oldgarden']

const ITEMS = CODES.map((code, index) => ({
  id: index + 1,
  code,
  title: [...TITLES, ...TITLES_2][index] as string,
  tag: TAGS[index % TAGS.length] as string,
  words: WORDS[index % WORDS.length] as string,
  genre: 'FICTION' as const,
  price: '1.00',
  pages: 100,
  publishedAt: new Date(Date.UTC(2024, 0, 1 + index)),
  available: true,
  ownerId: 1 + (index % OWNERS.length),
}))

const NOTES = ['Good', 'GOOD', 'good stuff', 'bad', 'Bad', 'good'].map((text, index) => ({
  id: index + 1,
  text,
  stars: 3,
  itemId: 1 + ((index * 5) % ITEMS.length),
}))

type Item = (typeof ITEMS)[number]

/** ASCII letters of either case as one: what every database does alike. */
const ascii = (text: string) => text.replace(/[A-Z]/g, (letter) => letter.toLowerCase())
const ownerOf = (item: Item) => OWNERS[item.ownerId - 1]?.name as string
const notesOf = (item: Item) => NOTES.filter((note) => note.itemId === item.id)

/** The ASCII cases: a query and the rows it selects, the same on every database. */
const CASES: Array<[string, (item: Item) => boolean]> = [
  ['title=RIVER', (i) => ascii(i.title).includes('river')],
  ['title=50%25', (i) => i.title.includes('50%')],
  ['title=A_B', (i) => ascii(i.title).includes('a_b')],
  ['title=K%5CSL', (i) => ascii(i.title).includes('k\\sl')],
  ['code=ab-1', (i) => ascii(i.code) === 'ab-1'],
  ['code=ab-1%20', (i) => i.code === 'ab-1 '],
  ['code=A_B', (i) => ascii(i.code) === 'a_b'],
  ['code=50%25', (i) => i.code === '50%'],
  ['code=BACK%5Cslash', (i) => ascii(i.code) === 'back\\slash'],
  ['code[]=AXB&code[]=Ab-10', (i) => ['axb', 'ab-10'].includes(ascii(i.code))],
  ['tag=-X', (i) => ascii(i.tag).endsWith('-x')],
  ['tag=X%25', (i) => i.tag.endsWith('x%')],
  ['words=GAR', (i) => /(?:^| )gar/.test(ascii(i.words))],
  ['owner.name=ANN', (i) => ascii(ownerOf(i)).startsWith('ann')],
  ['owner.name=bob', (i) => ascii(ownerOf(i)).startsWith('bob')],
  ['notes.text=GOOD', (i) => notesOf(i).some((note) => ascii(note.text) === 'good')],
  [
    'title=river&owner.name=ann',
    (i) => /river/.test(ascii(i.title)) && /^ann/.test(ascii(ownerOf(i))),
  ],
]

let prisma: PrismaClient
let origin: string
let compiledOrigin: string
let close: () => Promise<void>
let closeCompiled: () => Promise<void>
let remove: () => Promise<void>
/** What the compiled engine's app logs it hands to the `prisma` engine. */
const handoffs: Record<string, unknown>[] = []

beforeAll(async () => {
  const database = await freshDatabase(SCHEMA)
  remove = database.remove
  const adapter = shareAdapter(createAdapter(database.url))
  prisma = new PrismaClient({ adapter })
  await prisma.owner.createMany({ data: OWNERS })
  await prisma.item.createMany({ data: ITEMS })
  await prisma.note.createMany({ data: NOTES })
  ;({ origin, close } = await startServer(createHydraApp({ prisma }).fetch))
  const logger = (record: { fields: Record<string, unknown> }) => {
    if (record.fields.event === 'engine.handoff') handoffs.push(record.fields)
  }
  const compiled = createHydraApp({ prisma, engine: 'compiled', adapter, logger })
  ;({ origin: compiledOrigin, close: closeCompiled } = await startServer(compiled.fetch))
})

afterAll(async () => {
  await close?.()
  await closeCompiled?.()
  await prisma?.$disconnect()
  await remove?.()
})

/** The answer of the `prisma` engine's app, once the `compiled` one's has been found the same. */
async function both(path: string): ReturnType<typeof get> {
  await expectSameOnBothEngines(origin, compiledOrigin, path)
  return get(origin, path)
}

/** The ids `/items/caseless?query` selects, read unpaged, as a full page and a partial one. */
async function selected(query: string): Promise<unknown[]> {
  const all = await both(`/items/caseless?${query}&pagination=false`)
  expect(all.status, JSON.stringify(all.body)).toBe(200)
  const rows = ids(all.body)
  const page = await both(`/items/caseless?${query}&itemsPerPage=2&page=2`)
  expect(ids(page.body)).toEqual(rows.slice(2, 4))
  expect(page.body['hydra:totalItems']).toBe(rows.length)
  const partial = await both(`/items/caseless?${query}&itemsPerPage=2&partial=true`)
  expect(ids(partial.body)).toEqual(rows.slice(0, 2))
  return rows
}

describe.each(CASES)('%s', (query, keep) => {
  it('selects the same rows on every database and engine, whatever the case', async () => {
    const rows = ITEMS.filter(keep).map((item) => item.id)
    expect(rows.length).toBeGreaterThan(0)
    expect(rows.length).toBeLessThan(ITEMS.length)
    expect(await selected(query)).toEqual(rows)
  })
})

describe('beyond ASCII', () => {
  const codes = async (query: string) =>
    (await selected(query)).map((id) => ITEMS[(id as number) - 1]?.code)

  it("folds letters as the database's LIKE does (docs/filters.md#case-sensitivity)", async () => {
    // PostgreSQL folds every letter, one by one, as the database's character type says: all of
    // them under a UTF-8 locale (C.UTF-8, en_US.UTF-8...), ASCII letters alone under C or POSIX.
    const ctype =
      TEST_DATABASE === 'postgresql'
        ? (
            await prisma.$queryRawUnsafe<Array<{ ctype: string }>>(
              "SELECT current_setting('lc_ctype') AS ctype"
            )
          )[0]?.ctype
        : undefined
    const folded = {
      // Only ASCII letters.
      sqlite: ['école'],
      postgresql: /^(?:C|POSIX)$/.test(ctype ?? '') ? ['école'] : ['École', 'école'],
      // As the column's collation, utf8mb4_unicode_ci: case and accents.
      mysql: ['École', 'école', 'ecole'],
    }[TEST_DATABASE]
    expect(await codes('code=%C3%A9cole')).toEqual(folded)
  })
})

describe('on the compiled engine', () => {
  // ILIKE on PostgreSQL, the plain LIKE (which ignores case there) on SQLite and MariaDB: the
  // compiled SQL writes every caseless search, through relations too.
  it('hands none of these searches to Prisma, and says so in neither the log nor the answer', async () => {
    expect(handoffs).toEqual([])
    for (const query of ['title=ann', 'code=%C3%A9cole', 'owner.name=ANN_', 'notes.text=a']) {
      const response = await fetch(`${compiledOrigin}/items/caseless?${query}`)
      expect(response.status, query).toBe(200)
      await response.arrayBuffer()
      expect(response.headers.get('Server-Timing'), query).not.toContain('handoff')
    }
  })
})

describe('through a relation', () => {
  // On SQLite, compiled SQL reads the escaped patterns (`LIKE … ESCAPE`), through relations too.
  it('%, _ and \\ are matched literally', async () => {
    expect(await selected('owner.name=ANN_')).toEqual(
      ITEMS.filter((item) => ownerOf(item) === 'ann_b').map((item) => item.id)
    )
    expect(await selected('notes.text=a%25')).toEqual([])
  })
})
