/**
 * The change log the database writes (docs/syncing.md, test/fixtures/changes): the generated
 * triggers, applied as a migration would, log every insert, update and delete of the models that
 * say `@changes` (and none of the others), whichever client writes, with the row's key and its
 * values before the change; and the log's order is commit order where the docs say so: on
 * PostgreSQL, an entry is below the watermark only once every transaction that could precede it
 * has ended; on MySQL/MariaDB the clock makes a second writer wait for the first's commit; on
 * SQLite the single writer does.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { PrismaClient } from '#fixtures/changes/prisma/client.js'
import { applyChangeLog } from './support/change-log.js'
import { createAdapter, freshDatabase, TEST_DATABASE } from './support/harness.js'

const SCHEMA = new URL('./fixtures/changes/schema.prisma', import.meta.url).pathname

let prisma: PrismaClient
/** A second client, with connections of its own: another writer. */
let other: PrismaClient
let remove: () => Promise<void>

/** The log's entries, in the order of their ids. */
async function entries() {
  const rows = await prisma.hydraChange.findMany({ orderBy: { id: 'asc' } })
  return rows.map((row) => ({
    id: row.id,
    tx: row.tx,
    model: row.model,
    op: row.op,
    key: row.key as Record<string, unknown>,
    image: row.image as Record<string, unknown>,
  }))
}

/**
 * Reads `read` until `done` holds of its value, every 250 ms for at most `bound` ms; the last
 * value read, which fails the caller's check when the bound ran out. (Polling MariaDB's
 * `INNODB_TRX` every 50 ms kept the second writer below from reaching its lock wait at all.)
 */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, bound: number) {
  const end = Date.now() + bound
  let value = await read()
  while (!done(value) && Date.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, 250))
    value = await read()
  }
  return value
}

/** MySQL/MariaDB: the transactions of this test's database waiting for a lock. */
async function lockWaits(): Promise<number> {
  const [row] = await prisma.$queryRawUnsafe<{ n: bigint | number }[]>(
    `SELECT COUNT(*) AS n FROM information_schema.INNODB_TRX t
     JOIN information_schema.PROCESSLIST p ON p.ID = t.trx_mysql_thread_id
     WHERE t.trx_state = 'LOCK WAIT' AND p.DB = DATABASE()`
  )
  return Number(row?.n)
}

/** The watermark of PostgreSQL's readers: every transaction below it has ended. */
async function watermark(): Promise<bigint> {
  const [row] = await prisma.$queryRawUnsafe<{ w: string }[]>(
    'SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS w'
  )
  return BigInt(row?.w as string)
}

beforeAll(async () => {
  const database = await freshDatabase(SCHEMA)
  remove = database.remove
  prisma = new PrismaClient({ adapter: createAdapter(database.url) })
  other = new PrismaClient({ adapter: createAdapter(database.url) })
  expect(await applyChangeLog(prisma)).toBeGreaterThan(0)
}, 120_000)

afterAll(async () => {
  await prisma?.$disconnect()
  await other?.$disconnect()
  await remove?.()
})

beforeEach(async () => {
  await prisma.hydraChange.deleteMany()
})

describe('the change log', () => {
  it('logs inserts, updates and deletes with the key and the values before the change', async () => {
    const note = await prisma.note.create({
      data: {
        title: 'first',
        owner: 'ann',
        score: 9_007_199_254_740_993n,
        price: '12.5',
        blob: Buffer.from([0xca, 0xfe]),
        stage: 'PUBLISHED',
        meta: { tags: ['a', 'b'], rank: 2 },
      },
    })
    await prisma.note.update({ where: { id: note.id }, data: { title: 'second', owner: 'bob' } })
    await prisma.note.delete({ where: { id: note.id } })
    const log = await entries()
    expect(log.map((entry) => [entry.model, entry.op, entry.key])).toEqual([
      ['Note', 'insert', { id: note.id }],
      ['Note', 'update', { id: note.id }],
      ['Note', 'delete', { id: note.id }],
    ])
    const [inserted, updated, deleted] = log
    // 64-bit integers and decimals as strings, bytes in hexadecimal: JSON loses none of them.
    // An enum by its name in the schema (stored as 'live'), JSON as JSON, on every database.
    expect(inserted?.image).toMatchObject({
      id: note.id,
      title: 'first',
      owner: 'ann',
      score: '9007199254740993',
      blob: 'cafe',
      stage: 'PUBLISHED',
      meta: { tags: ['a', 'b'], rank: 2 },
    })
    expect(Number(inserted?.image.price)).toBe(12.5)
    expect(updated?.image).toMatchObject({ title: 'first', owner: 'ann' })
    expect(deleted?.image).toMatchObject({ title: 'second', owner: 'bob' })
    expect(Object.keys(inserted?.image ?? {}).sort()).toEqual(
      ['blob', 'done', 'id', 'meta', 'owner', 'price', 'score', 'stage', 'title', 'written'].sort()
    )
  })

  it('logs a null JSON field and the default enum value', async () => {
    const note = await prisma.note.create({ data: { title: 'plain', owner: 'ann' } })
    const [entry] = await entries()
    expect(entry?.key).toEqual({ id: note.id })
    expect(entry?.image).toMatchObject({ stage: 'DRAFT', meta: null })
  })

  it('logs a changed key as the old key deleted and the new key inserted', async () => {
    await prisma.label.create({ data: { noteId: 1, name: 'red', color: '#f00' } })
    await prisma.label.update({
      where: { noteId_name: { noteId: 1, name: 'red' } },
      data: { name: 'crimson' },
    })
    const log = await entries()
    expect(log.map((entry) => [entry.model, entry.op, entry.key, entry.image])).toEqual([
      ['Label', 'insert', { noteId: 1, name: 'red' }, { noteId: 1, name: 'red', color: '#f00' }],
      ['Label', 'delete', { noteId: 1, name: 'red' }, { noteId: 1, name: 'red', color: '#f00' }],
      [
        'Label',
        'insert',
        { noteId: 1, name: 'crimson' },
        { noteId: 1, name: 'crimson', color: '#f00' },
      ],
    ])
  })

  it('logs every field of a model wider than one call of the JSON functions, nulls too', async () => {
    const names = Array.from({ length: 45 }, (_, index) => `f${String(index + 1).padStart(2, '0')}`)
    // Every other field set: the values after the first 40 pairs are added to the object.
    const data = Object.fromEntries(
      names.map((name, index) => [name, index % 2 === 0 ? `value ${name}` : null])
    )
    await prisma.wide.create({ data: { id: 1, ...data } })
    const [entry] = await entries()
    expect(entry?.image).toEqual({ id: 1, ...data })
  })

  it('logs the writes of any client, and none of a model without @changes', async () => {
    const table = TEST_DATABASE === 'mysql' ? '`note labels`' : '"note labels"'
    const [noteId, name, color] =
      TEST_DATABASE === 'mysql'
        ? ['`note id`', '`name`', '`label color`']
        : ['"note id"', '"name"', '"label color"']
    await prisma.$executeRawUnsafe(
      `INSERT INTO ${table} (${noteId}, ${name}, ${color}) VALUES (7, 'raw', 'blue')`
    )
    await prisma.$executeRawUnsafe(`DELETE FROM ${table} WHERE ${noteId} = 7`)
    await prisma.draft.create({ data: { title: 'not logged' } })
    const log = await entries()
    expect(log.map((entry) => [entry.model, entry.op, entry.key])).toEqual([
      ['Label', 'insert', { noteId: 7, name: 'raw' }],
      ['Label', 'delete', { noteId: 7, name: 'raw' }],
    ])
  })

  it.runIf(TEST_DATABASE === 'postgresql')(
    'PostgreSQL: a writer with another search_path logs into the log of the triggers',
    async () => {
      // A schema first on the writer's path, with a log table of the same name: an unqualified
      // name resolved through the writer's path would log there.
      await prisma.$executeRawUnsafe('CREATE SCHEMA IF NOT EXISTS elsewhere')
      await prisma.$executeRawUnsafe(
        'CREATE TABLE IF NOT EXISTS elsewhere.hydra_changes (LIKE public.hydra_changes INCLUDING ALL)'
      )
      const note = await prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe('SET LOCAL search_path TO elsewhere')
        const [row] = await tx.$queryRawUnsafe<{ id: number }[]>(
          `INSERT INTO public."Note" (title, owner) VALUES ('pathless', 'ann') RETURNING id`
        )
        return row as { id: number }
      })
      const [elsewhere] = await prisma.$queryRawUnsafe<{ n: bigint }[]>(
        'SELECT COUNT(*) AS n FROM elsewhere.hydra_changes'
      )
      expect(Number(elsewhere?.n)).toBe(0)
      expect((await entries()).map((entry) => [entry.op, entry.key])).toEqual([
        ['insert', { id: note.id }],
      ])
    },
    60_000
  )
})

describe('commit order', () => {
  it('leaves no entry for a transaction rolled back', async () => {
    await expect(
      prisma.$transaction(async (tx) => {
        await tx.note.create({ data: { title: 'undone', owner: 'ann' } })
        throw new Error('roll back')
      })
    ).rejects.toThrow('roll back')
    expect(await entries()).toEqual([])
  })

  /**
   * A transaction that writes a note and stays open until `commit`: its write is done once
   * `written` resolves.
   */
  function heldWriter(title: string) {
    let wrote = () => {}
    let commit = () => {}
    const written = new Promise<void>((resolve) => {
      wrote = resolve
    })
    const released = new Promise<void>((resolve) => {
      commit = resolve
    })
    const done = prisma.$transaction(
      async (tx) => {
        await tx.note.create({ data: { title, owner: 'held' } })
        wrote()
        await released
      },
      { maxWait: 10_000, timeout: 60_000 }
    )
    return { written, commit, done }
  }

  it.runIf(TEST_DATABASE === 'postgresql')(
    'PostgreSQL: an entry committed behind an open transaction stays above the watermark until it ends',
    async () => {
      const held = heldWriter('held')
      await held.written
      const later = await other.note.create({ data: { title: 'later', owner: 'quick' } })
      const before = await entries()
      const laterEntry = before.find((entry) => entry.key.id === later.id)
      // The later entry is visible, with a larger transaction id than the held one's, so a
      // reader that read it now and moved past it would never see the held one: the watermark
      // keeps it above.
      const during = await watermark()
      expect(laterEntry?.tx).toBeGreaterThanOrEqual(during)
      held.commit()
      await held.done
      const after = await entries()
      const held2 = after.find((entry) => entry.image.title === 'held')
      expect(held2?.tx).toBeLessThan(laterEntry?.tx as bigint)
      // The watermark covers the whole server: other files' transactions may hold it back a
      // while after ours ended.
      const past = await until(watermark, (value) => value > (laterEntry?.tx as bigint), 30_000)
      expect(past).toBeGreaterThan(laterEntry?.tx as bigint)
      expect(held2?.tx).toBeLessThan(past)
    },
    60_000
  )

  // SQLite's writers are one at a time by design (a second connection's write waits for the
  // first's commit, in this process synchronously: better-sqlite3 blocks while it waits), so its
  // log's order is commit order without a clock.
  it.runIf(TEST_DATABASE === 'mysql')(
    'MySQL/MariaDB: a second writer waits for the first to commit, and its entry comes after',
    async () => {
      const held = heldWriter('held')
      await held.written
      // A Prisma query runs once something awaits it: `then` sends it now.
      const later = other.note
        .create({ data: { title: 'later', owner: 'quick' } })
        .then((row) => row)
      // The second writer inserts another row: only the clock's row lock can make it wait.
      const waiting = await until(lockWaits, (count) => count > 0, 20_000)
      expect(waiting).toBe(1)
      held.commit()
      await held.done
      await later
      const log = await entries()
      expect(log.map((entry) => entry.image.title)).toEqual(['held', 'later'])
    },
    60_000
  )
})
