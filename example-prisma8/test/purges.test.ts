/**
 * Purge on write on Prisma 8 (runtime/src/data/prisma8/, docs/caching.md#purge-on-write-on-prisma-8),
 * against PostgreSQL, with the contract of test/purges/ (emitted by `prisma contract emit`, created
 * by `prisma db init` in a database of its own). The purge records, when it is called, what a
 * connection of its own reads of the tables: a purge sent before the write's `COMMIT` reads the
 * rows as they were, and a reader filling the cache then would put the old answer back. A
 * middleware of the test's own, after the invalidation's, holds every write statement 50 ms before
 * the transaction goes on to its `COMMIT`, so that a purge sent early is always seen early.
 */
// Prisma 8's client reads and writes a DateTime as a Temporal.Instant, which Node 22 has no global of.
import 'temporal-polyfill/full/global'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import postgres from '@prisma/orm-postgres/runtime'
import pg from 'pg'
import { Temporal } from 'temporal-polyfill/full'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { hydraPrisma8Invalidation } from '../../runtime/src/data/prisma8/purge-middleware.js'
import { keyText } from '../../runtime/src/values/key-text.js'
import type { Contract } from './purges/generated/contract.d.ts'
import contractJson from './purges/generated/contract.json' with { type: 'json' }
import { PURGES_DATABASE, PURGES_URL, SERVER_URL } from './support/database-urls.js'

const database = PURGES_DATABASE
const url = PURGES_URL
const folder = fileURLToPath(new URL('..', import.meta.url))

/** One purge: its tags, sorted, and the tables as another connection read them then. */
interface Purge {
  tags: string[]
  authors: string[]
  books: string[]
}

const purges: Purge[] = []
const observer = new pg.Client({ connectionString: url })
const admin = new pg.Client({ connectionString: SERVER_URL })

/** The tables as another connection reads them: `id:name` authors, `id:title:year` books. */
async function tables() {
  const authors = await observer.query<{ row: string }>(
    `select id || ':' || name as row from "Author" order by id`
  )
  const books = await observer.query<{ row: string }>(
    `select id || ':' || title || ':' || year as row from "Book" order by id`
  )
  return { authors: authors.rows.map(({ row }) => row), books: books.rows.map(({ row }) => row) }
}

const invalidation = hydraPrisma8Invalidation({
  purge: async (tags) => {
    purges.push({ tags: [...tags].sort(), ...(await tables()) })
  },
  // As the generated resources say them: the fields their pages may be tagged by the values of.
  resources: [
    {
      name: 'Author',
      id: { name: 'id', kind: 'Int' },
      iriOf: (row) => `/authors/${Reflect.get(row, 'id')}`,
      valueFields: new Set(['id', 'name']),
    },
    {
      name: 'Book',
      id: { name: 'id', kind: 'Int' },
      iriOf: (row) => `/books/${Reflect.get(row, 'id')}`,
      valueFields: new Set(['id', 'title', 'year', 'authorId']),
    },
    // The IRI the item route writes for a DateTime key (runtime/src/hydra/item-key.ts).
    {
      name: 'Reading',
      id: { name: 'takenAt', kind: 'DateTime' },
      iriOf: (row) =>
        `/readings/${encodeURIComponent(keyText('DateTime', Reflect.get(row, 'takenAt')))}`,
    },
  ],
})

/** Holds every write statement 50 ms after it ran: the transaction's `COMMIT` comes that late. */
const slowCommits = {
  name: 'slow commits',
  familyId: 'sql' as const,
  async afterQuery(plan: { ast: { kind: string } }) {
    if (plan.ast.kind !== 'select') await new Promise((resolve) => setTimeout(resolve, 50))
  },
  async afterExecute() {
    await new Promise((resolve) => setTimeout(resolve, 50))
  },
}

const db = invalidation.watch(
  postgres<Contract>({ contractJson, url, middleware: [invalidation.middleware, slowCommits] })
)
const { Author, Book, Reading } = db.orm.public

/** A meeting of `parties`: each call resolves once all of them have called. */
function meeting(parties: number) {
  let arrived = 0
  let all = () => {}
  const everyone = new Promise<void>((resolve) => {
    all = resolve
  })
  return () => {
    arrived += 1
    if (arrived === parties) all()
    return everyone
  }
}

/** What a write of the book `Tehanu` (1990, author 1, id 1) purges: the pages its values meet. */
const TEHANU = ['Book:any', 'Book:authorId=1', 'Book:id=1', 'Book:title=tehanu', 'Book:year=1990']

/** The purges sent since the test began, once every one has ended. */
async function sent() {
  await invalidation.settled()
  return purges
}

beforeAll(async () => {
  await admin.connect()
  await admin.query(`drop database if exists ${database}`)
  await admin.query(`create database ${database}`)
  const init = spawnSync(
    'node_modules/.bin/prisma',
    ['db', 'init', '--config', 'test/purges/prisma.config.ts'],
    { cwd: folder, env: { ...process.env, DATABASE_URL: url }, encoding: 'utf8' }
  )
  if (init.status !== 0) throw new Error(`prisma db init failed:\n${init.stdout}\n${init.stderr}`)
  await observer.connect()
}, 60_000)

afterAll(async () => {
  await db.close()
  await observer.end()
  await admin.query(`drop database if exists ${database}`)
  await admin.end()
})

beforeEach(async () => {
  await invalidation.settled()
  await observer.query('truncate "Book", "Author", "Reading" restart identity')
  purges.length = 0
})

describe('writes outside a transaction', () => {
  it('purge the pages a created row meets by its values, once the row is visible', async () => {
    await Author.create({ name: 'Le Guin' })
    expect(await sent()).toEqual([
      {
        tags: ['Author:any', 'Author:id=1', 'Author:name=le%20guin'],
        authors: ['1:Le Guin'],
        books: [],
      },
    ])
    purges.length = 0
    await Book.create({ title: 'Tehanu', year: 1990, authorId: 1 })
    expect(await sent()).toEqual([
      { tags: TEHANU, authors: ['1:Le Guin'], books: ['1:Tehanu:1990'] },
    ])
  })

  it('purge every row of their model for a bulk update or delete', async () => {
    await Author.create({ name: 'Le Guin' })
    await Book.create({ title: 'Tehanu', year: 1990, authorId: 1 })
    purges.length = 0
    await Book.where((book) => book.year.lt(2000)).updateAndCount({ year: 1991 })
    expect(await sent()).toEqual([
      { tags: ['Book', 'Book:rows'], authors: ['1:Le Guin'], books: ['1:Tehanu:1991'] },
    ])
    purges.length = 0
    // A delete changes the rows its relations reach (a cascade, SetNull), as on Prisma 7.
    await Book.where((book) => book.year.lt(2000)).deleteAndCount()
    expect(await sent()).toEqual([
      { tags: ['Author', 'Author:rows', 'Book', 'Book:rows'], authors: ['1:Le Guin'], books: [] },
    ])
  })

  it('purge the row an upsert updates', async () => {
    await Author.create({ name: 'Banks' })
    purges.length = 0
    await Author.upsert({
      create: { id: 1, name: 'Iain Banks' },
      update: { name: 'Iain Banks' },
      conflictOn: { id: 1 },
    })
    expect(await sent()).toEqual([
      { tags: ['/authors/1', 'Author'], authors: ['1:Iain Banks'], books: [] },
    ])
  })

  it('purge the model of an SQL-builder update without RETURNING, by its rows tag', async () => {
    await Author.create({ name: 'Le Guin' })
    await Book.create({ title: 'Tehanu', year: 1990, authorId: 1 })
    purges.length = 0
    const plan = db.sql.public.Book.update({ year: 1992 })
      .where((fields, fns) => fns.eq(fields.id, 1))
      .build()
    await db.runtime().execute(plan)
    expect(await sent()).toEqual([
      { tags: ['Book', 'Book:rows'], authors: ['1:Le Guin'], books: ['1:Tehanu:1992'] },
    ])
  })
})

describe('ORM updates, deletes and nested creates, each in a transaction of its own', () => {
  it('purge the rows they return once their transaction committed', async () => {
    await Author.create({ name: 'Le Guin' })
    await Book.create({ title: 'Tehanu', year: 1990, authorId: 1 })
    purges.length = 0
    await Book.where({ id: 1 }).update({ year: 1991 })
    expect(await sent()).toEqual([
      { tags: ['/books/1', 'Book'], authors: ['1:Le Guin'], books: ['1:Tehanu:1991'] },
    ])
  })

  it('purge a row keyed by a DateTime by the IRI its item route writes', async () => {
    const takenAt = Temporal.Instant.from('2024-01-31T12:00:00.500Z')
    await Reading.create({ takenAt, value: 1 })
    await invalidation.settled()
    purges.length = 0
    await Reading.where({ takenAt }).update({ value: 2 })
    expect((await sent()).map(({ tags }) => tags)).toEqual([
      ['/readings/2024-01-31T12%3A00%3A00.500Z', 'Reading'],
    ])
  })

  it('purge a deleted row and every model its relations reach', async () => {
    await Author.create({ name: 'Le Guin' })
    await Book.create({ title: 'Tehanu', year: 1990, authorId: 1 })
    purges.length = 0
    await Author.where({ id: 1 }).delete()
    expect(await sent()).toEqual([
      {
        tags: [
          '/authors/1',
          'Author:any',
          'Author:id=1',
          'Author:name=le%20guin',
          'Book',
          'Book:rows',
        ],
        authors: [],
        books: [],
      },
    ])
  })

  it('purge every model a nested create writes, once committed', async () => {
    await Author.create({
      name: 'Le Guin',
      books: (books) => books.create([{ title: 'Tehanu', year: 1990 }]),
    })
    expect(await sent()).toEqual([
      {
        tags: ['Author:any', 'Author:id=1', 'Author:name=le%20guin', ...TEHANU],
        authors: ['1:Le Guin'],
        books: ['1:Tehanu:1990'],
      },
    ])
  })

  it('purge every row of their model when an update changes a key', async () => {
    await Author.create({ name: 'Le Guin' })
    purges.length = 0
    await Author.where({ id: 1 }).update({ id: 7 })
    expect(await sent()).toEqual([
      { tags: ['Author', 'Author:rows'], authors: ['7:Le Guin'], books: [] },
    ])
  })
})

describe('db.transaction', () => {
  it('purges every write once, after its commit', async () => {
    await db.transaction(async (tx) => {
      await tx.orm.public.Author.create({ name: 'Banks' })
      await tx.orm.public.Book.create({ title: 'Excession', year: 1996, authorId: 1 })
      await tx.orm.public.Book.where({ id: 1 }).update({ year: 1997 })
    })
    expect(await sent()).toEqual([
      {
        tags: [
          '/books/1',
          'Author:any',
          'Author:id=1',
          'Author:name=banks',
          'Book',
          'Book:any',
          'Book:authorId=1',
          'Book:id=1',
          'Book:title=excession',
          'Book:year=1996',
        ],
        authors: ['1:Banks'],
        books: ['1:Excession:1997'],
      },
    ])
  })

  it('purges an SQL-builder write after its commit', async () => {
    await Author.create({ name: 'Banks' })
    purges.length = 0
    const plan = db.sql.public.Author.update({ name: 'Iain Banks' })
      .where((fields, fns) => fns.eq(fields.id, 1))
      .build()
    await db.transaction(async (tx) => {
      await tx.execute(plan)
    })
    expect(await sent()).toEqual([
      { tags: ['Author', 'Author:rows'], authors: ['1:Iain Banks'], books: [] },
    ])
  })

  it('purges nothing when it rolls back', async () => {
    await Author.create({ name: 'Banks' })
    purges.length = 0
    const failure = new Error('rolled back')
    await expect(
      db.transaction(async (tx) => {
        await tx.orm.public.Book.create({ title: 'Excession', year: 1996, authorId: 1 })
        await tx.orm.public.Author.where({ id: 1 }).update({ name: 'Iain Banks' })
        throw failure
      })
    ).rejects.toBe(failure)
    expect(await sent()).toEqual([])
    expect(await tables()).toEqual({ authors: ['1:Banks'], books: [] })
  })

  it('keeps the writes of transactions running together apart', async () => {
    await Author.create({ name: 'Banks' })
    await Author.create({ name: 'Le Guin' })
    purges.length = 0
    // Both transactions are open before either writes, and both wrote before either ends.
    const opened = meeting(2)
    const wrote = meeting(2)
    const committed = db.transaction(async (tx) => {
      await opened()
      await tx.orm.public.Author.where({ id: 1 }).update({ name: 'Iain Banks' })
      await wrote()
    })
    const rolledBack = db.transaction(async (tx) => {
      await opened()
      await tx.orm.public.Author.where({ id: 2 }).update({ name: 'Ursula' })
      await wrote()
      throw new Error('rolled back')
    })
    await Promise.allSettled([committed, rolledBack])
    await committed
    expect(await sent()).toEqual([
      { tags: ['/authors/1', 'Author'], authors: ['1:Iain Banks', '2:Le Guin'], books: [] },
    ])
  })
})

describe('a commit the server refuses', () => {
  beforeAll(async () => {
    // Checked at COMMIT: an author named Banned fails the commit, and PostgreSQL rolls it back.
    await observer.query(`create function refuse_banned() returns trigger language plpgsql as $$
      begin
        if new.name = 'Banned' then raise exception 'banned author' using errcode = '23514'; end if;
        return new;
      end $$`)
    await observer.query(`create constraint trigger "Author_not_banned" after insert or update
      on "Author" deferrable initially deferred for each row execute function refuse_banned()`)
  })
  afterAll(async () => {
    await observer.query('drop trigger "Author_not_banned" on "Author"')
  })

  it('purges nothing of db.transaction', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.orm.public.Author.create({ name: 'Banned' })
      })
    ).rejects.toThrow()
    expect(await sent()).toEqual([])
    expect(await tables()).toEqual({ authors: [], books: [] })
  })

  it('purges nothing of an ORM update', async () => {
    await Author.create({ name: 'Banks' })
    purges.length = 0
    await expect(Author.where({ id: 1 }).update({ name: 'Banned' })).rejects.toThrow()
    expect(await sent()).toEqual([])
    expect(await tables()).toEqual({ authors: ['1:Banks'], books: [] })
  })
})

describe('shared totals', () => {
  it('are dropped for the models a transaction wrote once it committed, not when it rolled back', async () => {
    // A store of counts in memory, each kept with the models it read.
    const counts = new Map<string, { value: number; models: readonly string[] }>()
    const dropped: string[][] = []
    const totals = {
      async get(key: string) {
        return counts.get(key)?.value
      },
      async set(
        key: string,
        value: number,
        _seconds: number,
        origin?: { models: readonly string[] }
      ) {
        counts.set(key, { value, models: origin?.models ?? [] })
      },
      async drop(models: readonly string[]) {
        dropped.push([...models].sort())
        for (const [key, count] of counts)
          if (count.models.some((model) => models.includes(model))) counts.delete(key)
      },
    }
    const counting = hydraPrisma8Invalidation({ totals })
    const client = counting.watch(
      postgres<Contract>({ contractJson, url, middleware: [counting.middleware] })
    )
    try {
      await totals.set('authors', 0, 60, { models: ['Author'] })
      await totals.set('books', 0, 60, { models: ['Book'] })
      await client
        .transaction(async (tx) => {
          await tx.orm.public.Author.create({ name: 'Ghost' })
          throw new Error('rolled back')
        })
        .catch(() => undefined)
      await counting.settled()
      expect(dropped).toEqual([])
      await client.transaction(async (tx) => {
        await tx.orm.public.Author.create({ name: 'Banks' })
      })
      await counting.settled()
    } finally {
      await client.close()
    }
    expect(dropped).toEqual([['Author']])
    expect([...counts.keys()]).toEqual(['books'])
  })
})

describe('a transaction of a client not watched', () => {
  it('purges before its commit, and says so once', async () => {
    const logged: string[] = []
    const early = hydraPrisma8Invalidation({
      purge: async (tags) => {
        purges.push({ tags: [...tags].sort(), ...(await tables()) })
      },
      logger: ({ fields }) => logged.push(fields.event),
    })
    const unwatched = postgres<Contract>({
      contractJson,
      url,
      middleware: [early.middleware, slowCommits],
    })
    try {
      await unwatched.transaction(async (tx) => {
        await tx.orm.public.Author.create({ name: 'Banks' })
        await tx.orm.public.Author.create({ name: 'Le Guin' })
      })
      await early.settled()
    } finally {
      await unwatched.close()
    }
    expect(logged).toEqual(['purge.unwatched'])
    // No resources given: no field is known to tag pages by, so each insert purges the model.
    expect(purges.map(({ tags }) => tags)).toEqual([['Author'], ['Author']])
    expect(purges[0]?.authors).toEqual([])
  })
})
