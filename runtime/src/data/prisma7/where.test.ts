import { describe, expect, it } from 'vitest'
import { allOf, both, NEVER } from '../../plan/condition.js'
import { readWhere, WhereFault } from '../../plan/scope-reader.js'
import { NO_ROW, nestableWhere, prismaSelect, prismaWhere } from './where.js'

/** A scope as users write it, read into the plan and written back for Prisma. */
const settleWhere = (where: unknown) => prismaWhere(readWhere(where))

/** The fault the scope reader finds in `where`; fails when it reads it. */
function faultOf(where: unknown): WhereFault {
  try {
    settleWhere(where)
  } catch (error) {
    expect(error).toBeInstanceOf(WhereFault)
    return error as WhereFault
  }
  throw new Error(`settled ${JSON.stringify(where)}`)
}

describe('a scope read, then written for Prisma', () => {
  it('reads the idioms of "no row" as no row', () => {
    for (const where of [
      { OR: [] },
      { AND: [{ OR: [] }] },
      { AND: { OR: [] } },
      { NOT: {} },
      { NOT: [{}] },
      { NOT: { AND: [] } },
      { OR: [{ OR: [] }] },
      { tenantId: 3, OR: [] },
      { AND: [{ tenantId: 3 }, { OR: [{ OR: [] }, { NOT: {} }] }] },
    ])
      expect(settleWhere(where), JSON.stringify(where)).toEqual(NO_ROW)
  })

  it('reads the idioms of "every row" as every row', () => {
    for (const where of [{}, { AND: [] }, { NOT: [] }, { NOT: { OR: [] } }, { OR: [{}] }])
      expect(settleWhere(where), JSON.stringify(where)).toBeUndefined()
    // `{}` in an OR holds for every row, so does the OR.
    expect(settleWhere({ OR: [{}, { id: 1 }] })).toBeUndefined()
  })

  it('keeps a where without constants as it means', () => {
    const where = {
      tenantId: 3,
      OR: [{ title: { contains: 'a' } }, { id: { in: [] } }],
      NOT: { deleted: true },
      author: { is: { country: 'AR' } },
      reviews: { some: { rating: { gte: 4 } } },
    }
    expect(settleWhere(where)).toEqual(where)
    // A condition on a value no row holds (`in: []`) is one Prisma reads alike everywhere.
    const none = { id: { in: [] } }
    expect(settleWhere(none)).toEqual(none)
  })

  it('drops the parts that hold for every row, and the alternatives that hold for none', () => {
    expect(settleWhere({ tenantId: 3, AND: [] })).toEqual({ tenantId: 3 })
    expect(settleWhere({ tenantId: 3, OR: [{ OR: [] }, { a: 1 }] })).toEqual({ tenantId: 3, a: 1 })
    expect(settleWhere({ NOT: [{ a: 1 }, { OR: [] }] })).toEqual({ NOT: { a: 1 } })
  })

  it('settles the where of a related model inside a relation filter', () => {
    // `{ OR: [] }` is right as the whole where of a relation's filter; `{}` too.
    expect(settleWhere({ author: { is: { AND: [{ OR: [] }] } } })).toEqual({
      author: { is: { OR: [] } },
    })
    expect(settleWhere({ reviews: { some: { NOT: {} }, none: { AND: [] } } })).toEqual({
      reviews: { some: { OR: [] }, none: {} },
    })
    // A to-one relation written directly is Prisma's `is`.
    expect(settleWhere({ author: { country: 'AR', OR: [] } })).toEqual({
      author: { is: { OR: [] } },
    })
    const direct = { author: { country: 'AR' } }
    expect(settleWhere(direct)).toEqual({ author: { is: { country: 'AR' } } })
    expect(settleWhere({ author: { is: null } })).toEqual({ author: { is: null } })
  })

  it('refuses values Prisma would read as no condition, and text no database compares alike', () => {
    const fault = (where: unknown) => faultOf(where).path
    expect(fault({ tenantId: undefined })).toBe('tenantId')
    expect(fault({ tenantId: {} })).toBe('tenantId')
    expect(fault({ AND: [{ tenantId: {} }] })).toBe('AND[0].tenantId')
    expect(fault({ author: { is: { id: {} } } })).toBe('author.is.id')
    expect(fault({ tenantId: { equals: undefined } })).toBe('tenantId.equals')
    expect(fault({ tenantId: { in: [1, undefined] } })).toBe('tenantId.in[1]')
    expect(fault({ sub: 'a\u0000b' })).toBe('sub')
    expect(fault({ sub: { in: ['a', '\u0000'] } })).toBe('sub.in[1]')
    expect(fault({ OR: [1] })).toBe('OR[0]')
    expect(fault(null)).toBe('')
    expect(fault([{ id: 1 }])).toBe('')
    // A condition that compares nothing, whatever its values, selects every row.
    expect(fault({ tenantName: { mode: 'insensitive' } })).toBe('tenantName')
    expect(fault({ tenantId: { not: { mode: 'insensitive' } } })).toBe('tenantId.not')
    expect(fault({ tenantId: { not: {} } })).toBe('tenantId.not')
    expect(fault({ data: { path: ['tenant'] } })).toBe('data')
    expect(fault({ author: { is: { name: { mode: 'default' } } } })).toBe('author.is.name')
    const compares = { name: { equals: 'Ann', mode: 'insensitive' }, id: { not: { in: [1] } } }
    expect(settleWhere(compares)).toEqual(compares)
    // Comparisons of values that exclude nothing, and their opposites.
    expect(fault({ tenantId: { notIn: [] } })).toBe('tenantId')
    expect(fault({ tags: { hasEvery: [] } })).toBe('tags')
    expect(fault({ name: { startsWith: '' } })).toBe('name')
    expect(fault({ name: { contains: '', mode: 'insensitive' } })).toBe('name')
    expect(fault({ tenantId: { not: { in: [] } } })).toBe('tenantId.not')
    expect(fault({ members: { every: {} } })).toBe('members.every')
    expect(fault({ members: { every: { OR: [{}, { id: 1 }] } } })).toBe('members.every')
    // A to-one relation written directly, with fields named as modifiers are: real comparisons.
    const folder = { folder: { path: '/x' }, theme: { mode: 'dark' } }
    expect(settleWhere(folder)).toEqual(folder)
    const json = { data: { path: ['tenant'], equals: 3 } }
    expect(settleWhere(json)).toEqual(json)
    expect(settleWhere({ name: { notIn: ['a'] } })).toEqual({ name: { notIn: ['a'] } })
    // A fault is a fault wherever it is, even beside a part that holds for no row.
    expect(fault({ OR: [], tenantId: {} })).toBe('tenantId')
  })

  it("refuses one value or null where a list belongs, a related model's fields included", () => {
    const problem = (where: unknown) => {
      const { problem, path } = faultOf(where)
      return `${problem} at ${path}`
    }
    expect(problem({ genre: { in: 'FICTION' } })).toBe(
      'one value (string) where a list belongs at genre.in'
    )
    expect(problem({ id: { not: { notIn: 3 } } })).toBe(
      'one value (number) where a list belongs at id.not.notIn'
    )
    expect(problem({ author: { is: { id: { in: null } } } })).toBe(
      'null where a list belongs at author.is.id.in'
    )
    expect(problem({ loans: { some: { bookId: { notIn: 2n } } } })).toBe(
      'one value (bigint) where a list belongs at loans.some.bookId.notIn'
    )
    // An object is Prisma's to read: a reference to a field of the model.
    const reference = { id: { in: Object.assign(Object.create({}), { name: 'ids' }) } }
    expect(settleWhere(reference)).toEqual(reference)
  })

  it('carries a value of a class the plan does not compare as Prisma wrote it', () => {
    // Prisma's null sentinels and a reference to a field: instances the client reads itself.
    class DbNull {}
    class FieldRef {
      name = 'limit'
    }
    const sentinel = new DbNull()
    const reference = new FieldRef()
    for (const where of [
      { payload: { equals: sentinel } },
      { payload: { not: sentinel } },
      { stock: { lt: reference } },
    ])
      expect(readWhere(where)).toEqual({
        kind: 'field',
        field: Object.keys(where)[0],
        test: { op: 'opaque', operators: Object.values(where)[0] },
      })
    expect(settleWhere({ payload: sentinel })).toEqual({ payload: { equals: sentinel } })
    // The values the plan compares stay typed.
    const at = new Date('2024-01-01T00:00:00Z')
    expect(readWhere({ createdAt: { lt: at } })).toEqual({
      kind: 'field',
      field: 'createdAt',
      test: { op: 'lt', value: at },
    })
  })
})

describe('joining conditions', () => {
  it('keeps "no row" as no row, written where Prisma reads it so', () => {
    const above = readWhere({ id: { gt: 1 } })
    expect(prismaWhere(both(undefined, above))).toEqual({ id: { gt: 1 } })
    expect(prismaWhere(both(readWhere({ a: 1 }), above))).toEqual({ a: 1, id: { gt: 1 } })
    expect(prismaWhere(both(NEVER, above))).toEqual(NO_ROW)
    expect(allOf([])).toBeUndefined()
    // Each negation stays one: `NOT` of both together would be another condition.
    expect(prismaWhere(readWhere({ NOT: [{ borrower: 'Reader 1' }, { id: { gt: 10 } }] }))).toEqual(
      {
        NOT: { borrower: 'Reader 1' },
        AND: [{ NOT: { id: { gt: 10 } } }],
      }
    )
    // A field's comparisons join in one filter; a relation's quantifiers in one.
    expect(prismaWhere(readWhere({ AND: [{ id: { gt: 1 } }, { id: { lt: 9 } }] }))).toEqual({
      id: { gt: 1, lt: 9 },
    })
    expect(prismaWhere(allOf([readWhere({ a: 1 }), readWhere({ OR: [] })]))).toEqual(NO_ROW)
    // "No row" inside a relation's filter is written as the related model's whole where.
    expect(prismaWhere(readWhere({ author: { is: { OR: [] } }, id: 1 }))).toEqual({
      author: { is: { OR: [] } },
      id: 1,
    })
  })
})

describe("a read's shape, written for Prisma", () => {
  it('writes each field, and each joined relation as a nested select, once per shape', () => {
    const shape = {
      fields: ['id', 'title'],
      joined: [{ relation: 'author', fields: ['id', 'name'] }],
    }
    const select = prismaSelect(shape)
    expect(select).toEqual({ id: true, title: true, author: { select: { id: true, name: true } } })
    expect(Object.keys(select)).toEqual(['id', 'title', 'author'])
    expect(prismaSelect(shape)).toBe(select)
    expect(prismaSelect({ fields: ['id'], joined: [] })).toEqual({ id: true })
  })
})

describe('a where the app nests in its own', () => {
  it('writes "no row" as a test on the key, however the plan says it', () => {
    for (const where of [{ OR: [] }, { tenantId: 3, OR: [] }, { AND: [{ NOT: {} }] }])
      expect(nestableWhere(readWhere(where), 'id'), JSON.stringify(where)).toEqual({
        id: { in: [] },
      })
    expect(nestableWhere(allOf([NEVER, readWhere({ tenantId: 3 })]), 'code')).toEqual({
      code: { in: [] },
    })
  })

  it('writes any other condition as prismaWhere does', () => {
    expect(nestableWhere(readWhere({ tenantId: 3 }), 'id')).toEqual({ tenantId: 3 })
    expect(nestableWhere(undefined, 'id')).toBeUndefined()
    expect(nestableWhere(NEVER, undefined)).toEqual(NO_ROW)
  })
})
