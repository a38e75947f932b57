import { describe, expect, it } from 'vitest'
import type { OrderField } from '../../contract/order.js'
import { type Condition, NEVER, onField } from '../../plan/condition.js'
import { readWhere } from '../../plan/scope-reader.js'
import { CompiledStatements, escapeIn } from './sql.js'

/** A condition as a scope writes it. */
const c = (where: Record<string, unknown>) => readWhere(where)
const by = (field: string, direction: 'asc' | 'desc' = 'asc'): OrderField => ({ field, direction })

const model = {
  select: 'SELECT "id", "title", "pub_at" AS "publishedAt" FROM "Book"',
  columns: {
    id: ['id', 'Int'],
    title: ['title', 'String'],
    publishedAt: ['pub_at', 'DateTime'],
    genre: ['genre', 'Genre'],
    payload: ['payload', 'Json', true],
  },
} as const

const on = (provider: string) => new CompiledStatements(model, provider, '"Book"')

describe('compiled statements', () => {
  it('writes a window with its order and placeholders per database', () => {
    const args = { order: [by('publishedAt', 'desc'), by('id')], skip: 10, take: 5 }
    expect(on('postgresql').rows(args)).toEqual({
      sql: `${model.select} ORDER BY "pub_at" DESC, "id" ASC LIMIT $1 OFFSET $2`,
      args: [5, 10],
      argTypes: [
        { scalarType: 'int', arity: 'scalar' },
        { scalarType: 'int', arity: 'scalar' },
      ],
    })
    expect(on('sqlite').rows({ skip: 3 })?.sql).toBe(`${model.select} LIMIT -1 OFFSET ?`)
    expect(on('mysql').rows({ skip: 3 })?.sql).toBe(
      `${model.select} LIMIT 18446744073709551615 OFFSET ?`
    )
  })

  it('limits the rows of each value of the first order field apart, joined by UNION ALL', () => {
    const args = { condition: c({ genre: 'A' }), order: [by('title'), by('id', 'desc')] }
    const names = ['id', 'title', 'publishedAt']
    const branch = (at: number, n: number) =>
      `SELECT "id", "title", "publishedAt" FROM (${model.select} WHERE ("genre" = $${n} AND "title" = $${n + 1}) ORDER BY "title" ASC, "id" DESC LIMIT $${n + 2}) AS "__${at}"`
    expect(on('postgresql').eachOf(args, ['x', 'y'], 4, names)).toEqual({
      sql: `${branch(0, 1)} UNION ALL ${branch(1, 4)} ORDER BY "title" ASC, "id" DESC`,
      args: ['A', 'x', 4, 'A', 'y', 4],
      argTypes: ['enum', 'string', 'int', 'enum', 'string', 'int'].map((scalarType) => ({
        scalarType,
        arity: 'scalar',
      })),
    })
    expect(on('mysql').eachOf(args, ['x'], 4, names)?.sql).toMatch(
      /^SELECT `id`, `title`, `publishedAt` FROM \(SELECT .* LIMIT \?\) AS `__0` ORDER BY `title` ASC, `id` DESC$/
    )
    // A list of the field's values in the condition is each branch's value instead, and a value
    // outside it no branch.
    const listed = { ...args, condition: c({ genre: 'A', title: { in: ['x', 'z'] } }) }
    expect(on('postgresql').eachOf(listed, ['x', 'y'], 4, names)).toEqual({
      sql: `${branch(0, 1)} ORDER BY "title" ASC, "id" DESC`,
      args: ['A', 'x', 4],
      argTypes: ['enum', 'string', 'int'].map((scalarType) => ({ scalarType, arity: 'scalar' })),
    })
    expect(on('postgresql').eachOf(listed, ['y'], 4, names)).toBeUndefined()
    // Every order field is a column the rows are read with; a value at least.
    expect(on('sqlite').eachOf(args, ['x'], 4, ['id', 'publishedAt'])).toBeUndefined()
    expect(on('sqlite').eachOf({ order: [by('author.name')] }, ['x'], 4, names)).toBeUndefined()
    expect(on('sqlite').eachOf({ order: [] }, ['x'], 4, names)).toBeUndefined()
    expect(on('sqlite').eachOf(args, [], 4, names)).toBeUndefined()
  })

  it("reads each member's rows as a LATERAL subquery of the members' table on PostgreSQL", () => {
    const args = { condition: c({ genre: 'A' }), order: [by('title'), by('id', 'desc')] }
    const names = ['id', 'title', 'publishedAt']
    const members = {
      table: '"Series"',
      columns: { name: ['label', 'String'] },
      key: 'name',
    } as const
    expect(on('postgresql').eachOf(args, ['x', 'y'], 4, names, members)).toEqual({
      sql: `SELECT "__v"."id", "__v"."title", "__v"."publishedAt" FROM "Series" AS "__p" CROSS JOIN LATERAL (${model.select} WHERE "genre" = $3 AND "title" = "__p"."label" ORDER BY "title" ASC, "id" DESC LIMIT $4) AS "__v" WHERE "__p"."label" IN ($1, $2) ORDER BY "__v"."title" ASC, "__v"."id" DESC`,
      args: ['x', 'y', 'A', 4],
      argTypes: ['string', 'string', 'enum', 'int'].map((scalarType) => ({
        scalarType,
        arity: 'scalar',
      })),
    })
    // Only the values a list of the condition holds; MariaDB and SQLite join branches instead.
    const listed = { ...args, condition: c({ title: { in: ['x', 'z'] } }) }
    expect(on('postgresql').eachOf(listed, ['x', 'y'], 4, names, members)?.sql).toContain(
      '(SELECT "id", "title", "pub_at" AS "publishedAt" FROM "Book" WHERE "title" = "__p"."label" ORDER BY'
    )
    expect(on('postgresql').eachOf(listed, ['x', 'y'], 4, names, members)?.args).toEqual(['x', 4])
    expect(on('postgresql').eachOf(listed, ['y'], 4, names, members)).toBeUndefined()
    for (const provider of ['mysql', 'sqlite'])
      expect(on(provider).eachOf(args, ['x', 'y'], 4, names, members)?.sql).toContain(' UNION ALL ')
  })

  it('writes whether each row holds a shown field’s condition as columns, parameters in order', () => {
    const shown = new Map([
      ['title', c({ genre: 'POETRY' }) as Condition],
      ['publishedAt', c({ id: { lt: 3 } }) as Condition],
    ])
    const args = { condition: c({ id: { gt: 4 } }), take: 5, shown }
    const both = on('sqlite').pageAndCount(args, c({ id: { gt: 7 } }))
    expect(both?.sql).toBe(
      'SELECT "id", "title", "pub_at" AS "publishedAt", CASE WHEN "genre" = ? THEN 1 ELSE 0 END AS "__s0", CASE WHEN "id" < ? THEN 1 ELSE 0 END AS "__s1", (SELECT COUNT(*) FROM "Book" WHERE "id" > ?) AS "total" FROM "Book" WHERE "id" > ? LIMIT ?'
    )
    expect(both?.args).toEqual(['POETRY', 3, 7, 4, 5])
    expect(on('postgresql').rows(args)?.sql).toBe(
      'SELECT "id", "title", "pub_at" AS "publishedAt", CASE WHEN "genre" = $1 THEN 1 ELSE 0 END AS "__s0", CASE WHEN "id" < $2 THEN 1 ELSE 0 END AS "__s1" FROM "Book" WHERE "id" > $3 LIMIT $4'
    )
    expect(on('sqlite').marksShown).toBe(true)
    expect(new CompiledStatements(model, 'sqlite', '"Other"').marksShown).toBe(false)
  })

  it("writes a page with its count as one more column, the count's parameters first", () => {
    const args = { condition: c({ id: { gt: 4 } }), order: [by('id')], skip: 10, take: 5 }
    expect(on('postgresql').pageAndCount(args, c({ id: { gt: 4 } }))).toEqual({
      sql: 'SELECT "id", "title", "pub_at" AS "publishedAt", (SELECT COUNT(*) FROM "Book" WHERE "id" > $1) AS "total" FROM "Book" WHERE "id" > $2 ORDER BY "id" ASC LIMIT $3 OFFSET $4',
      args: [4, 4, 5, 10],
      argTypes: ['int', 'int', 'int', 'int'].map((scalarType) => ({ scalarType, arity: 'scalar' })),
    })
    expect(on('sqlite').pageAndCount({ take: 5 }, undefined)?.sql).toBe(
      'SELECT "id", "title", "pub_at" AS "publishedAt", (SELECT COUNT(*) FROM "Book") AS "total" FROM "Book" LIMIT ?'
    )
    // The count's column is named apart from the fields, which the client's raw query keys by.
    const withTotal = { ...model, columns: { ...model.columns, total: ['sum', 'Int'] } } as const
    expect(
      new CompiledStatements(withTotal, 'postgresql', '"Book"').pageAndCount({}, undefined)?.sql
    ).toContain('(SELECT COUNT(*) FROM "Book") AS "_total" FROM "Book"')
    // A select that is not the model's plain one (an older module) is read by the transaction.
    expect(on('postgresql').pageAndCount({}, c({ author: { is: { id: 1 } } }))).toBeUndefined()
    expect(
      new CompiledStatements(model, 'sqlite', '"Other"').pageAndCount({}, undefined)
    ).toBeUndefined()
  })

  it('writes the shapes of filters and cursor positions', () => {
    const at = new Date('2024-01-02T00:00:00Z')
    const where = {
      AND: [
        { genre: { in: ['FICTION', 'POETRY'] }, title: { contains: 'a\\%b' } },
        {
          AND: [
            { publishedAt: { lte: at } },
            { OR: [{ publishedAt: { lt: at } }, { id: { gt: 4 } }] },
          ],
        },
        { publishedAt: { not: null } },
      ],
    }
    const query = on('postgresql').rows({ condition: c(where), take: 2 })
    expect(query?.sql).toBe(
      `${model.select} WHERE ("genre" IN ($1, $2) AND "title" LIKE $3 AND "pub_at" <= $4 AND ("pub_at" < $5 OR "id" > $6) AND "pub_at" IS NOT NULL) LIMIT $7`
    )
    expect(query?.args).toEqual(['FICTION', 'POETRY', '%a\\%b%', at, at, 4, 2])
  })

  it('names the escape of the patterns on SQLite, whose LIKE has none by default', () => {
    const query = on('sqlite').count(c({ title: { startsWith: '50\\%\\_x\\\\' } }))
    expect(query?.sql).toBe(`SELECT COUNT(*) AS total FROM "Book" WHERE "title" LIKE ? ESCAPE '\\'`)
    expect(query?.args).toEqual(['50\\%\\_x\\\\%'])
  })

  it('tests a Json column’s null, the database’s or JSON’s, in each database’s SQL', () => {
    const isNull = onField('payload', { op: 'jsonNull' })
    const notNull = onField('payload', { op: 'not', test: { op: 'jsonNull' } })
    const count = 'SELECT COUNT(*) AS total FROM "Book" WHERE'
    expect(on('postgresql').count(isNull)?.sql).toBe(
      `${count} ("payload"::jsonb = 'null'::jsonb OR "payload" IS NULL)`
    )
    expect(on('sqlite').count(notNull)?.sql).toBe(
      `${count} NOT ("payload" = 'null' OR "payload" IS NULL)`
    )
    expect(on('mysql').count(isNull)?.sql).toBe(
      `${count} ((JSON_CONTAINS(\`payload\`, 'null') AND JSON_CONTAINS('null', \`payload\`)) OR \`payload\` IS NULL)`
    )
    expect(on('postgresql').count(notNull)?.sql).toBe(
      `${count} NOT ("payload"::jsonb = 'null'::jsonb OR "payload" IS NULL)`
    )
    const mysql = on('mysql').count(notNull)
    expect(mysql?.sql).toBe(
      `${count} NOT ((JSON_CONTAINS(\`payload\`, 'null') AND JSON_CONTAINS('null', \`payload\`)) OR \`payload\` IS NULL)`
    )
    // No parameter: the test holds no client value.
    expect(mysql?.args).toEqual([])
    expect(on('sqlserver').count(isNull)).toBeUndefined()
  })

  it('writes a case-insensitive exact match as each database reads it', () => {
    // Without `mode`: the pattern as a start followed by nothing, as the filters write it.
    const exact = c({ title: { startsWith: 'a\\_b', not: { startsWith: 'a\\_b_' } } })
    expect(on('sqlite').count(exact)?.sql).toBe(
      `SELECT COUNT(*) AS total FROM "Book" WHERE ("title" LIKE ? ESCAPE '\\' AND "title" NOT LIKE ? ESCAPE '\\')`
    )
    const mysql = on('mysql').count(exact)
    expect(mysql?.sql).toBe(
      'SELECT COUNT(*) AS total FROM "Book" WHERE (`title` LIKE ? AND `title` NOT LIKE ?)'
    )
    expect(mysql?.args).toEqual(['a\\_b%', 'a\\_b_%'])
    // With it, Prisma's ILIKE.
    const postgresql = on('postgresql').count(
      c({ title: { equals: 'a\\_b', mode: 'insensitive' } })
    )
    expect(postgresql?.sql).toBe('SELECT COUNT(*) AS total FROM "Book" WHERE "title" ILIKE $1')
    expect(postgresql?.args).toEqual(['a\\_b'])
    expect(
      on('postgresql').count(c({ title: { not: { contains: 'a', endsWith: 'b' } } }))
    ).toBeUndefined()
  })

  it('writes nothing it cannot express: the layer asks Prisma instead', () => {
    const sqlite = on('sqlite')
    expect(sqlite.rows({ condition: c({ author: { is: { name: 'Ann' } } }) })).toBeUndefined()
    expect(sqlite.rows({ order: [by('author.name')] })).toBeUndefined()
    expect(
      sqlite.rows({ condition: c({ title: { contains: 'a', mode: 'insensitive' } }) })
    ).toBeUndefined()
    expect(sqlite.rows({ condition: c({ tags: { has: 'a' } }) })).toBeUndefined()
    // A value the client reads itself (Prisma's null sentinel, a reference to a field).
    class DbNull {}
    expect(sqlite.rows({ condition: c({ payload: new DbNull() }) })).toBeUndefined()
    expect(sqlite.rows({ condition: c({ payload: { not: new DbNull() } }) })).toBeUndefined()
    expect(on('postgresql').count(c({ title: { contains: 'a', mode: 'insensitive' } }))?.sql).toBe(
      'SELECT COUNT(*) AS total FROM "Book" WHERE "title" ILIKE $1'
    )
  })

  it('writes the logic of conditions: every row, no row, not', () => {
    const postgresql = on('postgresql')
    expect(postgresql.count(undefined)?.sql).toBe('SELECT COUNT(*) AS total FROM "Book"')
    expect(postgresql.count(NEVER)?.sql).toBe('SELECT COUNT(*) AS total FROM "Book" WHERE 1=0')
    expect(postgresql.count(c({ NOT: { id: 1 } }))?.sql).toBe(
      'SELECT COUNT(*) AS total FROM "Book" WHERE NOT ("id" = $1)'
    )
    // Insensitive comparisons other than the LIKE patterns are Prisma's.
    expect(postgresql.count(c({ title: { in: ['a'], mode: 'insensitive' } }))).toBeUndefined()
    expect(postgresql.count(c({ title: { gt: 'a', mode: 'insensitive' } }))).toBeUndefined()
  })

  it('finds the escapes a search pattern holds, and the text it matches', () => {
    expect(escapeIn(c({ AND: [{ id: 1 }, { title: { contains: 'snake\\_case' } }] }))).toBe(
      'snake_case'
    )
    expect(escapeIn(c({ title: { startsWith: 'a', not: { startsWith: 'a\\\\_' } } }))).toBe('a\\_')
    // Wildcards Prisma reads as wildcards, and exact values, are no escapes.
    expect(
      escapeIn(c({ title: { startsWith: 'ann', not: { startsWith: 'ann_' } } }))
    ).toBeUndefined()
    expect(escapeIn(c({ title: 'exact\\%' }))).toBeUndefined()
    expect(escapeIn(undefined)).toBeUndefined()
  })
})

/** Books by one author each, their tags (implicit many-to-many) and composite-keyed shelves. */
const models = {
  Book: {
    table: { name: 'Book', schema: null },
    columns: model.columns,
    relations: {
      author: { model: 'Author', owned: true, on: [['authorId', 'id']] },
      shelf: {
        model: 'Shelf',
        owned: true,
        on: [
          ['aisle', 'a'],
          ['slot', 's'],
        ],
      },
      tags: {
        model: 'Tag',
        many: true,
        on: [['id', 'A']],
        through: { table: { name: '_BookToTag', schema: null }, on: [['B', 'id']] },
      },
    },
  },
  Author: {
    table: { name: 'Author', schema: null },
    columns: { id: ['id', 'Int'], name: ['name', 'String'], country: ['country', 'String', true] },
    relations: { books: { model: 'Book', many: true, on: [['id', 'authorId']] } },
  },
  Tag: {
    table: { name: 'Tag', schema: null },
    columns: { label: ['label', 'String'] },
    relations: {},
  },
  Shelf: {
    table: { name: 'Shelf', schema: 's1' },
    columns: { label: ['label', 'String'] },
    relations: {},
  },
} as const
const related = { ...model, name: 'Book', models }
const books = new CompiledStatements(related, 'postgresql', '"Book"')
const authors = new CompiledStatements(
  { select: 'SELECT "id" FROM "Author"', columns: models.Author.columns, name: 'Author', models },
  'postgresql',
  '"Author"'
)
const whereOf = (statements: CompiledStatements, where: Record<string, unknown>) =>
  statements.rows({ condition: c(where) })?.sql.replace(/^SELECT .*? FROM "(Book|Author)"/, '')

describe('compiled conditions through relations', () => {
  it("writes a to-one relation's test as EXISTS, and its null as the foreign key's", () => {
    expect(whereOf(books, { author: { is: { name: 'Ann' } } })).toBe(
      ' WHERE EXISTS (SELECT 1 FROM "Author" AS "r1" WHERE "r1"."id" = "Book"."authorId" AND "r1"."name" = $1)'
    )
    expect(whereOf(books, { author: { name: 'Ann' } })).toBe(
      whereOf(books, { author: { is: { name: 'Ann' } } })
    )
    expect(whereOf(books, { author: null })).toBe(' WHERE NOT ("authorId" IS NOT NULL)')
    expect(whereOf(books, { author: { is: null } })).toBe(' WHERE NOT ("authorId" IS NOT NULL)')
    expect(whereOf(books, { author: { isNot: null } })).toBe(' WHERE "authorId" IS NOT NULL')
  })

  it('asks a related row under a NOT for a condition that is not false, as a LEFT JOIN reads it', () => {
    // Prisma's `isNot`: no related row, or one whose condition is false (a NULL country is neither).
    expect(whereOf(books, { author: { isNot: { country: 'FR' } } })).toBe(
      ' WHERE NOT (EXISTS (SELECT 1 FROM "Author" AS "r1" WHERE "r1"."id" = "Book"."authorId" AND ("r1"."country" = $1) IS NOT FALSE))'
    )
    expect(whereOf(books, { NOT: { author: { country: 'FR' } } })).toBe(
      whereOf(books, { author: { isNot: { country: 'FR' } } })
    )
    // Two NOTs: the row's test is true again.
    expect(whereOf(books, { NOT: { author: { isNot: { country: 'FR' } } } })).toBe(
      ' WHERE NOT (NOT (EXISTS (SELECT 1 FROM "Author" AS "r1" WHERE "r1"."id" = "Book"."authorId" AND "r1"."country" = $1)))'
    )
  })

  it('writes some, none and every as Prisma does: EXISTS, NOT EXISTS, NOT EXISTS of the others', () => {
    const from = 'SELECT 1 FROM "Book" AS "r1" WHERE "r1"."authorId" = "Author"."id"'
    expect(whereOf(authors, { books: { some: { title: 'Dune' } } })).toBe(
      ` WHERE EXISTS (${from} AND "r1"."title" = $1)`
    )
    expect(whereOf(authors, { books: { none: { title: 'Dune' } } })).toBe(
      ` WHERE NOT EXISTS (${from} AND "r1"."title" = $1)`
    )
    expect(whereOf(authors, { books: { every: { title: 'Dune' } } })).toBe(
      ` WHERE NOT EXISTS (${from} AND NOT ("r1"."title" = $1))`
    )
    expect(whereOf(authors, { books: { some: {} } })).toBe(` WHERE EXISTS (${from} AND 1=1)`)
    expect(whereOf(authors, { books: { some: { OR: [] } } })).toBe(
      ` WHERE EXISTS (${from} AND 1=0)`
    )
  })

  it("goes through Prisma's join table, composite keys and nested relations", () => {
    expect(whereOf(books, { tags: { some: { label: 'sf' } } })).toBe(
      ' WHERE EXISTS (SELECT 1 FROM "_BookToTag" AS "r2" INNER JOIN "Tag" AS "r1" ON "r1"."id" = "r2"."B" WHERE "r2"."A" = "Book"."id" AND "r1"."label" = $1)'
    )
    expect(whereOf(books, { shelf: { label: 'top' } })).toBe(
      ' WHERE EXISTS (SELECT 1 FROM "s1"."Shelf" AS "r1" WHERE "r1"."a" = "Book"."aisle" AND "r1"."s" = "Book"."slot" AND "r1"."label" = $1)'
    )
    expect(whereOf(books, { author: { books: { every: { tags: { none: {} } } } } })).toBe(
      ' WHERE EXISTS (SELECT 1 FROM "Author" AS "r1" WHERE "r1"."id" = "Book"."authorId" AND NOT EXISTS (SELECT 1 FROM "Book" AS "r2" WHERE "r2"."authorId" = "r1"."id" AND NOT (NOT EXISTS (SELECT 1 FROM "_BookToTag" AS "r4" INNER JOIN "Tag" AS "r3" ON "r3"."id" = "r4"."B" WHERE "r4"."A" = "r2"."id" AND 1=1))))'
    )
  })

  it('orders through a to-one relation by a scalar subquery, and leaves the rest to Prisma', () => {
    expect(books.rows({ order: [by('author.name', 'desc'), by('id')] })?.sql).toBe(
      `${model.select} ORDER BY (SELECT "r1"."name" FROM "Author" AS "r1" WHERE "r1"."id" = "Book"."authorId") DESC, "id" ASC`
    )
    expect(authors.rows({ order: [by('books.title')] })).toBeUndefined()
    // A relation the compiled form does not hold, or a quantifier not of its kind.
    expect(on('postgresql').rows({ condition: c({ author: { name: 'Ann' } }) })).toBeUndefined()
    expect(books.rows({ condition: c({ editor: { is: { name: 'Ann' } } }) })).toBeUndefined()
    expect(books.rows({ condition: c({ author: { some: { name: 'Ann' } } }) })).toBeUndefined()
  })

  it("counts through relations in the page's statement, each subquery with its own alias", () => {
    const condition = c({ author: { name: 'Ann' } })
    const sql = books.pageAndCount({ condition, take: 2 }, condition)?.sql
    // The count from the related rows (IN), the page in its order (EXISTS).
    expect(sql).toContain(
      '(SELECT COUNT(*) FROM "Book" WHERE "Book"."authorId" IN (SELECT "r1"."id" FROM "Author" AS "r1" WHERE "r1"."name" = $1))'
    )
    expect(sql).toContain(
      'FROM "Book" WHERE EXISTS (SELECT 1 FROM "Author" AS "r2" WHERE "r2"."id" = "Book"."authorId" AND "r2"."name" = $2)'
    )
  })

  it('counts a to-one or some test with no NOT above it from the related rows, the rest as a page', () => {
    const countOf = (statements: CompiledStatements, where: Record<string, unknown>) =>
      statements.count(c(where))?.sql.replace(/^SELECT COUNT\(\*\) AS total FROM "\w+"/, '')
    expect(countOf(books, { author: { books: { some: { title: 'Dune' } } } })).toBe(
      ' WHERE "Book"."authorId" IN (SELECT "r1"."id" FROM "Author" AS "r1" WHERE "r1"."id" IN (SELECT "r2"."authorId" FROM "Book" AS "r2" WHERE "r2"."title" = $1))'
    )
    expect(countOf(authors, { books: { some: { title: 'Dune' } } })).toBe(
      ' WHERE "Author"."id" IN (SELECT "r1"."authorId" FROM "Book" AS "r1" WHERE "r1"."title" = $1)'
    )
    expect(countOf(authors, { books: { some: {} } })).toBe(
      ' WHERE "Author"."id" IN (SELECT "r1"."authorId" FROM "Book" AS "r1")'
    )
    // Under a NOT an IN would be unknown where the EXISTS is false: the page's test.
    for (const where of [
      { NOT: { author: { name: 'Ann' } } },
      { author: { isNot: { name: 'Ann' } } },
    ])
      expect(countOf(books, where)).toBe(whereOf(books, where))
    // none and every, a join table, a tie of two columns: as a page writes them.
    for (const where of [
      { books: { none: { title: 'Dune' } } },
      { books: { every: { title: 'Dune' } } },
    ])
      expect(countOf(authors, where)).toBe(whereOf(authors, where))
    for (const where of [{ tags: { some: { label: 'sf' } } }, { shelf: { label: 'top' } }])
      expect(countOf(books, where)).toBe(whereOf(books, where))
  })
})
