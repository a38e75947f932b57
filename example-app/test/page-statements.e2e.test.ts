/**
 * The statements a paged request with an exact count sends, counted at the driver
 * (test/support/driver-statements.ts), on test/fixtures/embeds through a shared adapter
 * (docs/performance.md#one-statement-begin): the page, its count and everything its embeds read
 * go in one transaction on one connection, one snapshot, and the transaction begins in one
 * statement where the database takes the isolation level there (PostgreSQL). A loan's book is
 * embedded by Prisma's nested select (one `IN` statement); a book's loans, capped at three, are
 * read after the page (data/embedded-pages.ts), inside the page's transaction. The compiled
 * engine reads a page with its count in one statement and the first pages in one more, and keeps
 * the transaction where the embedded rows' scope is checked.
 */
import { shareAdapter } from '@prisma-hydra/runtime'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { PrismaClient } from '#fixtures/embeds/prisma/client.js'
import { recordStatements, type SentStatement, statementsOf } from './support/driver-statements.js'
import { EMBEDS_SCHEMA, embedsApp } from './support/embeds-app.js'
import {
  createAdapter,
  freshDatabase,
  get,
  startServer,
  TEST_DATABASE,
  type TestDatabase,
} from './support/harness.js'
import { seedLibrary } from './support/library-rows.js'

let prisma: PrismaClient
let database: TestDatabase
/**
 * `checked`: the compiled engine where a scope of books applies, whose embeds are checked;
 * `opaque`: where a scope of loans holds a test the compiled SQL does not write (`notIn`).
 */
const origins = { prisma: '', compiled: '', checked: '', opaque: '' }
const closers: Array<() => Promise<void>> = []
/** The options of an app of the fixture. */
type AppOptions = Parameters<typeof embedsApp>[1]
/** What the compiled app logs when it is made. */
const records: { level: string; fields: Record<string, unknown> }[] = []

beforeAll(async () => {
  database = await freshDatabase(EMBEDS_SCHEMA)
  const adapter = shareAdapter(createAdapter(database.url))
  prisma = new PrismaClient({ adapter })
  await seedLibrary(prisma)
  recordStatements(TEST_DATABASE)
  const serve = async (name: keyof typeof origins, options: Partial<AppOptions>) => {
    const app = embedsApp('page statements', { prisma, adapter, ...options })
    const { origin, close } = await startServer(app.fetch)
    origins[name] = origin
    closers.push(close)
  }
  await serve('prisma', { engine: 'prisma' })
  await serve('compiled', { engine: 'compiled', logger: (record) => records.push(record) })
  await serve('checked', {
    engine: 'compiled',
    access: { Book: { scope: () => ({ id: { lte: 1000 } }) } },
  })
  await serve('opaque', {
    engine: 'compiled',
    access: { Loan: { scope: () => ({ id: { notIn: [1_000_000] } }) } },
  })
}, 120_000)

afterAll(async () => {
  for (const close of closers) await close()
  await prisma?.$disconnect()
  await database?.remove()
})

/** The statements of one request of `path`, after a first one (statements prepared once). */
async function statementsOfRequest(origin: string, path: string): Promise<SentStatement[]> {
  expect((await get(origin, path)).status).toBe(200)
  return statementsOf(async () => expect((await get(origin, path)).status).toBe(200))
}

/** How each database's adapter begins a transaction at the page's isolation level. */
const BEGIN: Record<typeof TEST_DATABASE, string[]> = {
  postgresql: ['BEGIN ISOLATION LEVEL REPEATABLE READ'],
  // No isolation level in START TRANSACTION (prisma7/transaction-start.ts in the runtime).
  mysql: ['SET TRANSACTION ISOLATION LEVEL REPEATABLE READ', 'BEGIN'],
  sqlite: ['BEGIN'],
}

/**
 * The statements as their first words say (`SELECT`, `BEGIN …`, `COMMIT`), without a new
 * connection's own set-up (the `SET SESSION` of the runtime's database/statement-limit.ts): the
 * pool opens one when it has none idle, whichever request comes.
 */
const kinds = (statements: readonly SentStatement[]) =>
  statements
    .filter(({ sql }) => !/^\s*SET SESSION\b/i.test(sql))
    .map(({ sql }) => (/^\s*select\b/i.test(sql) ? 'SELECT' : sql.trim()))

it('prisma: a page with an embedded to-one relation begins its transaction and nothing more', async () => {
  const statements = await statementsOfRequest(origins.prisma, '/loans')
  // The page, its books (one IN), the count: nothing between BEGIN and the page.
  expect(kinds(statements)).toEqual([
    ...BEGIN[TEST_DATABASE],
    'SELECT',
    'SELECT',
    'SELECT',
    'COMMIT',
  ])
})

// MariaDB's compiled reads are the driver's prepared statements (the runtime's compiled/mariadb.ts),
// which the recorder does not see.
it.skipIf(TEST_DATABASE === 'mysql')(
  'compiled: a page with an embedded to-one relation is one statement',
  async () => {
    // The page, its books joined and the count in one statement: one snapshot, no transaction.
    expect(kinds(await statementsOfRequest(origins.compiled, '/loans'))).toEqual(['SELECT'])
  }
)

// On MariaDB a page that steps over rows reads their keys first (runtime/src/data/compiled/sql.ts,
// its unit tests); the recorder does not see the driver's prepared statements there.
it.skipIf(TEST_DATABASE === 'mysql')(
  'compiled: a page past an offset reads its rows at once on SQLite and PostgreSQL',
  async () => {
    const [second] = await statementsOfRequest(origins.compiled, '/loans?page=2')
    // docs/performance.md#a-pages-keys-read-first: those databases answered it as fast or faster.
    expect(second?.sql).toMatch(/ FROM "Loan" LEFT JOIN .* LIMIT .* OFFSET /)
    expect(second?.sql).not.toContain('"__p"')
  }
)

it('compiled: hands nothing to Prisma, the loans joined, the first pages numbered', async () => {
  // (test/composite-keys.e2e.test.ts names what it hands over.)
  expect(records.filter(({ fields }) => fields.event === 'engine.handoff')).toEqual([])
  const timing = async (path: string) =>
    (await fetch(`${origins.compiled}${path}`)).headers.get('Server-Timing') ?? ''
  expect(await timing('/loans')).not.toContain('handoff')
  expect(await timing('/books')).not.toContain('handoff')
})

it('prisma: the first pages a page embeds are read in its transaction', async () => {
  const statements = await statementsOfRequest(origins.prisma, '/books')
  const [first] = statements
  expect(statements.every(({ connection }) => connection === first?.connection)).toBe(true)
  const listed = kinds(statements)
  const begin = BEGIN[TEST_DATABASE]
  expect(listed.slice(0, begin.length)).toEqual(begin)
  expect(listed.at(-1)).toBe('COMMIT')
  // The page, its count and the loans, each statement once: no second transaction.
  expect(listed.filter((kind) => kind === 'COMMIT')).toHaveLength(1)
  expect(listed.filter((kind) => kind === 'SELECT').length).toBeGreaterThanOrEqual(3)
})

it('prisma: a sub-collection reads its parent in its page’s transaction', async () => {
  const statements = await statementsOfRequest(origins.prisma, '/books/1/loans')
  const [first] = statements
  expect(statements.every(({ connection }) => connection === first?.connection)).toBe(true)
  // The book, the page of its loans, their books (one IN) and their count: one transaction,
  // nothing before it.
  expect(kinds(statements)).toEqual([
    ...BEGIN[TEST_DATABASE],
    'SELECT',
    'SELECT',
    'SELECT',
    'SELECT',
    'COMMIT',
  ])
  expect(statements[BEGIN[TEST_DATABASE].length]?.sql).toMatch(
    /^SELECT .*\bFROM [`"\w.]*[`"]Book[`"] WHERE/
  )
})

it.skipIf(TEST_DATABASE === 'mysql')(
  'compiled: a page, its count and every first page are two statements',
  async () => {
    // The page with its count, then every book's first loans: no transaction around them.
    expect(kinds(await statementsOfRequest(origins.compiled, '/books'))).toEqual([
      'SELECT',
      'SELECT',
    ])
  }
)

it('compiled: the check of embedded rows is read in the page’s transaction', async () => {
  // Loans embed their book, under a scope of books: the page with its count and joined books,
  // then the check of those books, one snapshot (the client's raw queries in its transaction).
  const statements = await statementsOfRequest(origins.checked, '/loans')
  const [first] = statements
  expect(statements.every(({ connection }) => connection === first?.connection)).toBe(true)
  const begin = BEGIN[TEST_DATABASE]
  expect(kinds(statements)).toEqual([...begin, 'SELECT', 'SELECT', 'COMMIT'])
})

it('compiled: first pages it hands to Prisma are said in the answer’s Server-Timing', async () => {
  const answered = async (origin: string) => {
    const response = await fetch(`${origin}/books`)
    expect(response.status).toBe(200)
    return { body: await response.text(), timing: response.headers.get('Server-Timing') ?? '' }
  }
  const [own, opaque] = [await answered(origins.prisma), await answered(origins.opaque)]
  expect(opaque.timing).toContain('handoff;desc="embed"')
  expect(opaque.body).toBe(own.body)
  expect((await answered(origins.compiled)).timing).not.toContain('handoff')
})
