/**
 * One query at a time on each node-postgres connection, on test/fixtures/embeds through a shared
 * adapter (docs/performance.md#one-statement-begin): node-postgres 8 deprecates a `query()` sent
 * while its connection still runs another (a `DeprecationWarning` on standard error, outside the
 * app's logger) and its next major refuses it, so neither the compiled engine nor Prisma's engine
 * may send one. Every `Client#query` of the driver the adapter loads is watched: a call made while
 * that connection has a query running or queued is an overlap. The requests are ones reaching a
 * snapshot of several statements: the compiled engine's first pages read with the check of the
 * rows embedding them (one transaction, two statements, data/compiled/engine.ts `findManyEach`),
 * and Prisma's engine reading a page, its count and its first pages in one transaction. PostgreSQL
 * only: the deprecation is node-postgres's.
 */
import { createRequire } from 'node:module'
import { shareAdapter } from '@prisma-hydra/runtime'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { PrismaClient } from '#fixtures/embeds/prisma/client.js'
import { EMBEDS_SCHEMA, embedsApp } from './support/embeds-app.js'
import {
  createAdapter,
  freshDatabase,
  get,
  startServer,
  type TestDatabase,
} from './support/harness.js'
import { seedLibrary } from './support/library-rows.js'

/** A query the driver was asked for: its SQL, its connection, and whether another was running. */
interface Sent {
  sql: string
  connection: object
  overlapping: boolean
}

/** node-postgres's connection, as the adapter loads it, with the fields telling it is busy. */
interface PgClient {
  _activeQuery?: unknown
  _queryQueue?: unknown[]
}

const sent: Sent[] = []
const required = createRequire(import.meta.url)
const { Client } = createRequire(required.resolve('@prisma/adapter-pg'))('pg') as {
  Client: { prototype: { query(...args: unknown[]): unknown } }
}
const query = Client.prototype.query
Client.prototype.query = function (this: PgClient, ...args: unknown[]) {
  const [config] = args
  const sql = typeof config === 'string' ? config : String((config as { text?: unknown })?.text)
  const overlapping = Boolean(this._activeQuery) || (this._queryQueue?.length ?? 0) > 0
  sent.push({ sql, connection: this, overlapping })
  return query.apply(this, args)
}

let prisma: PrismaClient
let database: TestDatabase
const origins = { prisma: '', compiled: '', checked: '' }
const closers: Array<() => Promise<void>> = []

beforeAll(async () => {
  database = await freshDatabase(EMBEDS_SCHEMA)
  const adapter = shareAdapter(createAdapter(database.url))
  prisma = new PrismaClient({ adapter })
  await seedLibrary(prisma)
  const serve = async (name: keyof typeof origins, options: object) => {
    const app = embedsApp('one query at a time', { prisma, adapter, ...options })
    const { origin, close } = await startServer(app.fetch)
    origins[name] = origin
    closers.push(close)
  }
  await serve('prisma', { engine: 'prisma' })
  await serve('compiled', { engine: 'compiled' })
  // Items of books 1 to 5, a collection of every book: the loans a page of books embeds are read
  // for the books whose sub-collection the caller may read, checked in the same snapshot.
  await serve('checked', {
    engine: 'compiled',
    access: {
      Book: {
        scope: () => ({ id: { lte: 5 } }),
        operations: { collection: { scope: () => ({ id: { lte: 1000 } }) } },
      },
    },
  })
}, 120_000)

afterAll(async () => {
  Client.prototype.query = query
  for (const close of closers) await close()
  await prisma?.$disconnect()
  await database?.remove()
})

/** What the driver was asked for while `path` was answered by `origin` (after a first time). */
async function sentFor(origin: string, path: string): Promise<Sent[]> {
  expect((await get(origin, path)).status).toBe(200)
  const from = sent.length
  // Several at once: each on a connection of its own, or waiting for one.
  const answers = await Promise.all([1, 2, 3].map(() => get(origin, path)))
  expect(answers.map(({ status }) => status)).toEqual([200, 200, 200])
  return sent.slice(from)
}

/** The longest run of `SELECT`s between a `BEGIN` and its `COMMIT` on one connection. */
function selectsInOneTransaction(statements: readonly Sent[]): number {
  const open = new Map<object, number>()
  let most = 0
  for (const { sql, connection } of statements) {
    if (/^\s*BEGIN\b/i.test(sql)) open.set(connection, 0)
    else if (/^\s*(COMMIT|ROLLBACK)\b/i.test(sql)) open.delete(connection)
    else if (/^\s*SELECT\b/i.test(sql) && open.has(connection)) {
      const selects = (open.get(connection) ?? 0) + 1
      open.set(connection, selects)
      most = Math.max(most, selects)
    }
  }
  return most
}

const overlaps = (statements: readonly Sent[]) =>
  statements.filter(({ overlapping }) => overlapping).map(({ sql }) => sql)

it('compiled: first pages read beside the check of their rows, one after the other', async () => {
  // Books embed their first loans; under a scope of books, the page's books are checked in the
  // same snapshot as the loans read for them: two statements in one transaction.
  const statements = await sentFor(origins.checked, '/books')
  expect(selectsInOneTransaction(statements)).toBeGreaterThanOrEqual(2)
  expect(overlaps(statements)).toEqual([])
})

it('compiled: loans, their books checked, and a page of books, one query at a time', async () => {
  for (const [origin, path] of [
    [origins.checked, '/loans'],
    [origins.compiled, '/books'],
    [origins.compiled, '/books/1/loans'],
  ] as const)
    expect(overlaps(await sentFor(origin, path))).toEqual([])
})

it('prisma: a page, its count and its first pages in one transaction, one at a time', async () => {
  const statements = await sentFor(origins.prisma, '/books')
  expect(selectsInOneTransaction(statements)).toBeGreaterThanOrEqual(3)
  expect(overlaps(statements)).toEqual([])
  expect(overlaps(await sentFor(origins.prisma, '/books/1/loans'))).toEqual([])
})
