/**
 * The databases bench/capped-embedding.ts reads: one fresh database of the embeds fixture
 * (example-app/test/fixtures/embeds) per database, number of loans a book and schema (the
 * fixture's own, or with `@@index([bookId, id])` on Loan), holding 10 books with that many loans
 * each, book after book, served by the fixture's generated app on both engines through one
 * driver adapter that counts the rows each statement reading the Loan table hands back
 * (example-app/test/support/row-count.ts). SQLite always, a file in a temporary folder;
 * PostgreSQL and MariaDB when BENCH_POSTGRES_URL and BENCH_MARIADB_URL (or the end-to-end suite's
 * DATABASE_URL_POSTGRES and DATABASE_URL_MARIADB) name a server: a database of its own there,
 * dropped at the end.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { pushSchema } from '@prisma-hydra/prisma-offline/push-schema'
import { writeSchemaCopy } from '@prisma-hydra/prisma-offline/schema-copy'
import { checkServer, createScratchDatabase } from '@prisma-hydra/prisma-offline/scratch-database'
import { shareAdapter } from '@prisma-hydra/runtime'
import { createAdapter, withSettings } from '../example-app/src/adapter.js'
import { countRows } from '../example-app/test/support/row-count.js'

type Hydra = typeof import('../example-app/test/.generated/embeds/hydra/index.js')
type Client = typeof import('../example-app/test/.generated/embeds/prisma/client.js')
type PrismaClient = InstanceType<Client['PrismaClient']>

const SCHEMA = new URL('../example-app/test/fixtures/embeds/schema.prisma', import.meta.url)
  .pathname

/** The index the second schema adds to Loan: a book's loans in their key's order. */
export const LOAN_INDEX = '@@index([bookId, id])'

/** The books of every database: one page of `/books` (the fixture's 10 a page). */
export const BOOKS = 10
/** Loans a `createMany`: 5 values each, well below every database's limit of bound values. */
const CHUNK = 2_000

/** A database the bench runs on, and where its fixture's client was generated. */
export interface Target {
  name: string
  /** The server's URL (any database of it), or none for SQLite. */
  server?: string
  /** The environment variable that named the server, for the report's command. */
  variable?: string
  /** The server's version, for the report. */
  version?: string
  /** The server's URL without its password, for the report. */
  shown?: string
  provider: 'sqlite' | 'postgresql' | 'mysql'
  /** The folder of example-app/test/ the fixture's client and app were generated into. */
  generated: string
}

/** SQLite, and each server an environment variable names (the bench's own first). */
export async function targets(): Promise<Target[]> {
  const { env } = process
  const found: Target[] = [{ name: 'SQLite', provider: 'sqlite', generated: '.generated' }]
  for (const [name, provider, variables] of [
    ['PostgreSQL', 'postgresql', ['BENCH_POSTGRES_URL', 'DATABASE_URL_POSTGRES']],
    ['MariaDB', 'mysql', ['BENCH_MARIADB_URL', 'DATABASE_URL_MARIADB']],
  ] as const) {
    const variable = variables.find((each) => env[each])
    if (!variable) continue
    const server = env[variable] as string
    // Asked first: a server that does not answer stops the run with the reason.
    const reported = await checkServer(server)
    // PostgreSQL's `version()` goes on to name the compiler it was built with.
    const version = /^PostgreSQL (\S+)/.exec(reported)?.[1] ?? reported
    const shown = new URL(server)
    if (shown.password) shown.password = '***'
    found.push({
      name,
      server,
      variable,
      version,
      shown: shown.toString(),
      provider,
      generated: `.generated-${provider}`,
    })
  }
  return found
}

/**
 * The fixture's schema without LOAN_INDEX (the fixture declares it), with it on Loan when
 * `indexed`, written into `folder`.
 */
async function schemaOf(folder: string, indexed: boolean): Promise<string> {
  const written = await readFile(SCHEMA, 'utf8')
  const text = written
    .split('\n')
    .filter((line) => line.trim() !== LOAN_INDEX)
    .join('\n')
  const anchor = '  @@index([loanedAt, id])\n'
  if (!text.includes(anchor)) throw new Error(`${SCHEMA}: no "${anchor.trim()}" line to add to`)
  const schemaPath = path.join(folder, 'embeds.prisma')
  await writeFile(schemaPath, indexed ? text.replace(anchor, `${anchor}  ${LOAN_INDEX}\n`) : text)
  return schemaPath
}

/** An empty database with the fixture's tables, and how to remove it. */
async function freshDatabase(
  target: Target,
  indexed: boolean
): Promise<{ url: string; remove(): Promise<void> }> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'prisma-hydra-capped-'))
  try {
    const schema = await schemaOf(folder, indexed)
    if (!target.server) {
      const url = `file:${path.join(folder, 'embeds.db')}`
      await pushSchema({ schemaPath: schema, url })
      return { url, remove: () => rm(folder, { recursive: true, force: true }) }
    }
    const { url, drop } = await createScratchDatabase(target.server, {
      prefix: 'prisma_hydra_bench_capped',
    })
    try {
      const schemaPath = await writeSchemaCopy({
        schemaPath: schema,
        provider: target.provider,
        dir: path.join(folder, target.provider),
      })
      await pushSchema({ schemaPath, url })
    } catch (error) {
      await drop()
      throw error
    }
    await rm(folder, { recursive: true, force: true })
    return { url, remove: drop }
  } catch (error) {
    await rm(folder, { recursive: true, force: true })
    throw error
  }
}

/** Book 1's loan `index` (from 0). */
function loan(index: number) {
  return {
    id: index + 1,
    borrower: `Reader ${1 + (index % 17)}`,
    loanedAt: new Date(Date.UTC(2025, 0, 1) + index * 60_000),
    returnedAt: index % 3 === 0 ? null : new Date(Date.UTC(2025, 6, 1) + index * 60_000),
    bookId: 1,
  }
}

/** How each provider quotes a name, and refreshes the planner's statistics of the tables. */
const DIALECT = {
  sqlite: { quote: '"', analyze: 'ANALYZE' },
  postgresql: { quote: '"', analyze: 'ANALYZE "Book", "Loan"' },
  mysql: { quote: '`', analyze: 'ANALYZE TABLE `Book`, `Loan`' },
} as const

/**
 * 10 books with `perBook` loans each, book after book: book 1's loans have the first ids, book
 * 10's the last, so that a statement walking the table in its key's order passes every loan of
 * the books before the one it reads (a book added after the others, then loaned a lot). Book 1's
 * loans are inserted by `createMany` in chunks, each other book's copied from them by one
 * `INSERT … SELECT` (Prisma's `createMany` takes some 150 µs a row on this machine: 200,000 rows
 * would take half a minute a database); then the tables are analyzed.
 */
async function seed(prisma: PrismaClient, perBook: number, target: Target): Promise<void> {
  await prisma.book.createMany({
    data: Array.from({ length: BOOKS }, (_, index) => ({
      id: index + 1,
      title: `Book ${index + 1}`,
      isbn: `978-1-${String(100000 + index)}-0`,
    })),
  })
  for (let start = 0; start < perBook; start += CHUNK) {
    const length = Math.min(CHUNK, perBook - start)
    await prisma.loan.createMany({ data: Array.from({ length }, (_, at) => loan(start + at)) })
  }
  const { quote, analyze } = DIALECT[target.provider]
  const [loans, id, borrower, loanedAt, returnedAt, bookId] = [
    'Loan',
    'id',
    'borrower',
    'loanedAt',
    'returnedAt',
    'bookId',
  ].map((name) => `${quote}${name}${quote}`)
  for (let book = 2; book <= BOOKS; book++)
    await prisma.$executeRawUnsafe(
      `INSERT INTO ${loans} (${id}, ${borrower}, ${loanedAt}, ${returnedAt}, ${bookId}) SELECT ${id} + ${(book - 1) * perBook}, ${borrower}, ${loanedAt}, ${returnedAt}, ${book} FROM ${loans} WHERE ${bookId} = 1`
    )
  if ((await prisma.loan.count()) !== BOOKS * perBook)
    throw new Error(`${target.name}: not ${BOOKS * perBook} loans after seeding`)
  // MariaDB answers ANALYZE TABLE with a result set.
  await prisma.$queryRawUnsafe(analyze)
}

/** The fixture's app on both engines over one seeded database, and the loans it reads. */
export interface Library {
  apps: {
    prisma: ReturnType<Hydra['createHydraApp']>
    compiled: ReturnType<Hydra['createHydraApp']>
  }
  prisma: PrismaClient
  /** The rows statements reading the Loan table handed back since the last reset. */
  loansRead(): number
  resetCount(): void
  close(): Promise<void>
}

/**
 * A fresh database of `target` holding 10 books of `perBook` loans each, with LOAN_INDEX when
 * `indexed`, served both ways.
 */
export async function openLibrary(
  target: Target,
  perBook: number,
  indexed: boolean
): Promise<Library> {
  const generated = `../example-app/test/${target.generated}/embeds`
  const [{ PrismaClient }, { createHydraApp }] = (await Promise.all([
    import(`${generated}/prisma/client.js`),
    import(`${generated}/hydra/index.js`),
  ])) as [Client, Hydra]
  const database = await freshDatabase(target, indexed)
  // A pool that opens its connections as statements need them, as the end-to-end harness does.
  const url =
    target.provider === 'mysql' ? withSettings(database.url, { minimumIdle: 1 }) : database.url
  const loans = countRows(createAdapter(url), 'Loan')
  const adapter = shareAdapter(loans.factory)
  const prisma = new PrismaClient({ adapter })
  try {
    await seed(prisma, perBook, target)
  } catch (error) {
    await prisma.$disconnect()
    await database.remove()
    throw error
  }
  return {
    apps: {
      prisma: createHydraApp({ prisma }),
      compiled: createHydraApp({ prisma, adapter, engine: 'compiled' }),
    },
    prisma,
    loansRead: loans.read,
    resetCount: loans.reset,
    async close() {
      await prisma.$disconnect()
      await database.remove()
    },
  }
}
