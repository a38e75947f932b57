/**
 * The `compiled` engine's statements run through a Prisma 8 client (runtime/src/data/prisma8/
 * sql-runner.ts), on PostgreSQL, against the same statements through `@prisma/adapter-pg` (what
 * the engine reads on Prisma 7): the same Prisma values, one snapshot for a snapshot's
 * statements, and the client's middleware seeing each of them. The process runs in a time zone
 * other than UTC, where a timestamp read as local time would be hours off.
 */
process.env.TZ = 'America/New_York'

import { PrismaPg } from '@prisma/adapter-pg'
import { Decimal } from '@prisma/client-runtime-utils'
import type { SqlMiddleware } from '@prisma/orm-postgres/family-runtime'
import postgres from '@prisma/orm-postgres/runtime'
import pg from 'pg'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { columnReads } from '../../runtime/src/data/compiled/columns.js'
import type { SqlQuery } from '../../runtime/src/data/compiled/query.js'
import { prisma8Runner } from '../../runtime/src/data/prisma8/sql-runner.js'
import { isOutage } from '../../runtime/src/database/outage.js'
import { readWhere } from '../../runtime/src/plan/scope-reader.js'
import type { Contract } from './sql-runner/.generated/contract.d.ts'
import contractJson from './sql-runner/.generated/contract.json' with { type: 'json' }
import { DATABASE_URL } from './support/database-urls.js'

/** What the client's middleware saw: each statement's text and where it ran. */
const seen: { hook: string; sql: string; scope: string }[] = []
const recorder: SqlMiddleware = {
  name: 'recorder',
  familyId: 'sql',
  beforeQuery(plan, ctx) {
    seen.push({ hook: 'beforeQuery', sql: plan.sql, scope: ctx.scope })
  },
  beforeExecute(plan, ctx) {
    seen.push({ hook: 'beforeExecute', sql: plan.sql, scope: ctx.scope })
  },
}

/** A write committed on another connection once the statement `after` has been read. */
let between: { after: string; write: () => Promise<unknown> } | undefined
const interleaver: SqlMiddleware = {
  name: 'interleaver',
  familyId: 'sql',
  async afterQuery(plan) {
    const pending = between
    if (pending?.after !== plan.sql) return
    between = undefined
    await pending.write()
  },
}

const db = postgres<Contract>({
  contractJson,
  url: DATABASE_URL,
  middleware: [recorder, interleaver],
})
const runner = prisma8Runner(db)
const writer = new pg.Client({ connectionString: DATABASE_URL })
const prisma7 = await new PrismaPg({ connectionString: DATABASE_URL }).connect()

/** The rows `@prisma/adapter-pg` reads of a statement, whose argument types it names itself. */
const prisma7Rows = async (query: SqlQuery) =>
  (await prisma7.queryRaw(query as Parameters<typeof prisma7.queryRaw>[0])).rows

beforeAll(async () => {
  await writer.connect()
  await writer.query(
    `INSERT INTO "Item" ("id", "name", "tags", "big", "price", "at", "local", "data", "blob", "status", "flag", "ratio") VALUES
      (1, 'a', '{x,"y z"}', 9007199254740993, 12.3400, '2026-01-02 03:04:05.678+00', '2026-01-02 03:04:05.678', '{"k": [1, 2]}', '\\x0102ff', 'active', true, 0.5),
      (2, 'b', '{}', -1, 0.1, '2026-06-01 12:00:00.5+02', '2026-06-01 12:00:00', '"hello"', '\\x', 'archived', false, -1e300),
      (3, 'c$1 ''q''', '{z}', 0, -5.5, '1999-12-31 23:59:59.999999+00', '1999-12-31 23:59:59.999', '[1, "two", {"three": 3.5}]', '\\xdeadbeef', 'active', true, 3),
      (4, 'd', '{}', 42, 7, '2026-03-04 05:06:07+00', '2026-03-04 05:06:07', 'null', '\\x00', 'archived', true, 1.25)`
  )
})

afterAll(async () => {
  await db.close()
  await writer.end()
  await prisma7.dispose()
})

beforeEach(() => {
  seen.length = 0
  between = undefined
})

const int = (value: number) => ({ value, type: 'int' })
/** A statement written by hand, in the compiled engine's shape. */
function statement(sql: string, ...args: { value: unknown; type: string }[]): SqlQuery {
  return {
    sql,
    args: args.map((arg) => arg.value),
    argTypes: args.map((arg) => ({ scalarType: arg.type, arity: 'scalar' as const })),
  }
}

/** The Item model as the compiled engine reads it (a generated `CompiledModel`). */
const model = { provider: 'postgresql', table: { name: 'Item', schema: null } }
const compiled = {
  columns: {
    id: ['id', 'Int'],
    name: ['name', 'String'],
    big: ['big', 'BigInt'],
    price: ['price', 'Decimal'],
    at: ['at', 'DateTime'],
    local: ['local', 'DateTime'],
    data: ['data', 'Json'],
    blob: ['blob', 'Bytes'],
    status: ['status', 'Status'],
    flag: ['flag', 'Boolean'],
    ratio: ['ratio', 'Float'],
  },
} as const
const fields = Object.keys(compiled.columns)
/** The engine's reads of the rows (`typed` as the runner's), and Prisma 7's (untyped rows). */
const reads = columnReads(model, compiled, fields, runner.typed)
const prisma7Reads = columnReads(model, compiled, fields, false)

/** A Prisma value as text naming its type, to compare values of any type exactly. */
function shown(value: unknown): string {
  if (value instanceof Date) return `Date ${value.toISOString()}`
  if (Decimal.isDecimal(value)) return `Decimal ${value.toFixed()}`
  if (typeof value === 'bigint') return `bigint ${value}`
  if (value instanceof Uint8Array)
    return `${value.constructor.name} ${Buffer.from(value).toString('hex')}`
  return `${typeof value} ${JSON.stringify(value)}`
}
const shownRows = (rows: object[]) =>
  rows.map((row) => Object.entries(row).map(([field, value]) => `${field}: ${shown(value)}`))

/** The engine's rows of `query` through the runner, and through Prisma 7's adapter. */
async function bothWays(query: SqlQuery | undefined, width = fields.length) {
  if (!query) throw new Error('The compiled engine did not write the statement.')
  // The columns after the model's (a page's count) as text: a number or text on either.
  const readWith =
    (read: (row: readonly unknown[]) => object) =>
    (row: readonly unknown[]): Record<string, unknown> => ({
      ...read(row),
      rest: row.slice(width).map(String),
    })
  const prisma8Values = (await runner.rows(query)).map(readWith(reads.read))
  const prisma7Values = (await prisma7Rows(query)).map(readWith(prisma7Reads.read))
  return {
    prisma8: shownRows(prisma8Values),
    prisma7: shownRows(prisma7Values),
    rows: prisma8Values,
  }
}

describe('the compiled engine on a Prisma 8 client', () => {
  it('runs in a time zone other than UTC', () => {
    expect(new Date(2026, 0, 2).getTimezoneOffset()).toBeGreaterThan(0)
  })

  it('reads the values Prisma 7 reads, with parameters of each type', async () => {
    const { statements } = reads
    const byId = [{ field: 'id', direction: 'asc' as const }]
    const written = [
      statements.rows({
        condition: readWhere({
          status: 'active',
          flag: true,
          big: { gte: 0n },
          price: { gt: new Decimal('-6') },
          ratio: { lt: 10.5 },
          at: { gt: new Date('1999-12-31T23:59:59.000Z') },
          name: { contains: '$1' },
        }),
        order: byId,
        take: 10,
      }),
      statements.rows({
        condition: readWhere({
          OR: [{ blob: { equals: new Uint8Array([1, 2, 255]) } }, { id: { in: [2, 4] } }],
          local: { lte: new Date('2026-06-01T12:00:00.000Z') },
        }),
        order: [{ field: 'at', direction: 'desc' }],
        take: 3,
        skip: 0,
      }),
      statements.rows({ order: byId, take: 10, skip: 1 }),
    ]
    for (const query of written) {
      const { prisma8, prisma7: expected } = await bothWays(query)
      expect(prisma8.length).toBeGreaterThan(0)
      expect(prisma8).toStrictEqual(expected)
    }
    const page = statements.pageAndCount(
      { order: byId, take: 2 },
      readWhere({ status: { in: ['active', 'archived'] } })
    )
    const { prisma8, prisma7: expected, rows } = await bothWays(page)
    expect(prisma8).toStrictEqual(expected)
    // The values themselves, Prisma's, whatever both read.
    expect(rows.map((row) => row.rest)).toEqual([['4'], ['4']])
    const [first, second] = rows
    expect(first).toMatchObject({ id: 1, big: 9007199254740993n, data: { k: [1, 2] }, flag: true })
    expect(shown(first?.at)).toBe('Date 2026-01-02T03:04:05.678Z')
    expect(shown(first?.local)).toBe('Date 2026-01-02T03:04:05.678Z')
    expect(shown(first?.price)).toBe('Decimal 12.34')
    expect(shown(first?.blob)).toBe('Uint8Array 0102ff')
    expect(shown(second?.at)).toBe('Date 2026-06-01T10:00:00.500Z')
    expect(second?.data).toBe('hello')
  })

  it('reads a $n in a quoted name or a text as the statement’s text, a null as NULL', async () => {
    const query = statement(
      `SELECT "id" AS "x$1", 'costs $1, ''$2''' AS "text", $3::text IS NULL AS "none" FROM "Item" WHERE "id" = $1 AND "name" <> $2`,
      int(3),
      { value: '$1', type: 'string' },
      { value: null, type: 'string' }
    )
    expect(await runner.rows(query)).toEqual([[3, "costs $1, '$2'", true]])
    // The raw lane binds no null: the middleware sees it in the text.
    expect(seen.map(({ sql }) => sql)).toEqual([query.sql.replace('$3', 'NULL')])
  })

  it('hands the values Prisma 8’s driver reads, each type’s', async () => {
    const query = statement(
      `SELECT "big", "price", "at", "local", "tags", "data", "blob", "status", $2::"Mood" AS "mood", COUNT(*) OVER () AS "total" FROM "Item" WHERE "id" = $1`,
      int(1),
      { value: 'happy', type: 'enum' }
    )
    const [prisma8Row] = await runner.rows(query)
    const [prisma7Row] = await prisma7Rows(query)
    // Timestamps as the server writes them, which the engine reads by the field's type.
    expect(prisma8Row).toEqual([
      '9007199254740993',
      '12.3400',
      '2026-01-02 03:04:05.678+00',
      '2026-01-02 03:04:05.678',
      '{x,"y z"}',
      { k: [1, 2] },
      Buffer.from([1, 2, 255]),
      'active',
      'happy',
      '1',
    ])
    // Where Prisma 7's adapter differs: a list parsed, JSON as its text.
    expect(prisma7Row).toEqual([
      '9007199254740993',
      '12.3400',
      '2026-01-02T03:04:05.678+00:00',
      '2026-01-02T03:04:05.678+00:00',
      ['x', 'y z'],
      '{"k": [1, 2]}',
      Buffer.from([1, 2, 255]),
      'active',
      'happy',
      '1',
    ])
  })

  it('reads and compares a timestamp with a zone in UTC whatever the session’s time zone', async () => {
    const at = new Date('2026-01-02T03:04:05.678Z')
    const kolkata = postgres<Contract>({
      contractJson,
      url: `${DATABASE_URL}?options=-c%20TimeZone%3DAsia%2FKolkata`,
    })
    try {
      const inKolkata = prisma8Runner(kolkata)
      const read = (rows: unknown[][]) => shownRows(rows.map(reads.read))
      const all = reads.statements.rows({ order: [{ field: 'id', direction: 'asc' }] })
      if (!all) throw new Error('The compiled engine did not write the statement.')
      expect(read(await inKolkata.rows(all))).toEqual(read(await runner.rows(all)))
      // A DateTime parameter against a timestamptz column (Prisma 8's DateTime) is the moment it
      // names: text without a zone would be read as Kolkata's 03:04:05.678.
      const atThen = statement(`SELECT "id" FROM "Item" WHERE "at" = $1`, {
        value: at,
        type: 'datetime',
      })
      expect(await inKolkata.rows(atThen)).toEqual([[1]])
      expect(await runner.rows(atThen)).toEqual([[1]])
    } finally {
      await kolkata.close()
    }
  })

  it('shows each statement to the client’s middleware', async () => {
    const query = statement('SELECT "name" FROM "Item" WHERE "id" = $1', int(2))
    expect(await runner.rows(query)).toEqual([['b']])
    await runner.snapshot([query, query], 'RepeatableRead')
    expect(seen).toEqual([
      { hook: 'beforeQuery', sql: query.sql, scope: 'runtime' },
      {
        hook: 'beforeExecute',
        sql: 'SET TRANSACTION ISOLATION LEVEL REPEATABLE READ',
        scope: 'transaction',
      },
      { hook: 'beforeQuery', sql: query.sql, scope: 'transaction' },
      { hook: 'beforeQuery', sql: query.sql, scope: 'transaction' },
    ])
  })
})

describe('a snapshot on a Prisma 8 client', () => {
  const price = (sql: string) => statement(sql, int(1))
  const first = price('SELECT "price" FROM "Item" WHERE "id" = $1')
  const second = price('SELECT "price" AS "again" FROM "Item" WHERE "id" = $1')
  let next = 100
  /** A new price for item 1, committed on another connection once `first` has been read. */
  function writeAfterFirst(): string {
    next += 1
    const written = String(next)
    between = {
      after: first.sql,
      write: () => writer.query('UPDATE "Item" SET "price" = $1 WHERE "id" = 1', [written]),
    }
    return written
  }
  const current = async () =>
    (await writer.query('SELECT "price"::text AS "price" FROM "Item" WHERE "id" = 1')).rows[0]
      ?.price as string

  it('reads its statements in one snapshot at REPEATABLE READ', async () => {
    const before = await current()
    const written = writeAfterFirst()
    const [one, two] = await runner.snapshot([first, second], 'RepeatableRead')
    expect(between).toBeUndefined()
    expect(await current()).toBe(written)
    expect(one).toEqual([[before]])
    expect(two).toEqual([[before]])
  })

  it('reads the write between them at READ COMMITTED, and without a transaction', async () => {
    const before = await current()
    let written = writeAfterFirst()
    expect(await runner.snapshot([first, second], 'ReadCommitted')).toEqual([
      [[before]],
      [[written]],
    ])
    const again = written
    written = writeAfterFirst()
    expect([await runner.rows(first), await runner.rows(second)]).toEqual([[[again]], [[written]]])
  })

  it('fails with the SQLSTATE of a serialization failure when its write conflicts', async () => {
    writeAfterFirst()
    const update = price('UPDATE "Item" SET "ratio" = "ratio" WHERE "id" = $1 RETURNING "id"')
    const error = await runner.snapshot([first, update], 'RepeatableRead').then(
      () => undefined,
      (failure: unknown) => failure
    )
    expect(error).toMatchObject({ name: 'SqlQueryError', sqlState: '40001' })
    expect((error as Error).cause).toMatchObject({ code: '40001' })
  })

  it('fails as an outage past a statement timeout, and reads again after', async () => {
    const error = await runner
      .snapshot(
        [statement(`SET LOCAL statement_timeout = '50ms'`), statement('SELECT pg_sleep(2)')],
        'ReadCommitted'
      )
      .then(
        () => undefined,
        (failure: unknown) => failure
      )
    expect(error).toMatchObject({ name: 'SqlQueryError', sqlState: '57014' })
    expect((error as Error).cause).toMatchObject({ code: '57014' })
    // Read as an outage (a 503) by the SQLSTATE node-postgres's error carries.
    expect(isOutage(error)).toBe(true)
    expect(await runner.rows(statement('SELECT 1 AS "one"'))).toEqual([[1]])
  })

  it('refuses an isolation level PostgreSQL does not have', async () => {
    await expect(runner.snapshot([first], 'Snapshot')).rejects.toThrow(
      'Unknown isolation level Snapshot.'
    )
  })
})
