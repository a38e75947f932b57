import { describe, expect, it } from 'vitest'
import type { CursorKey } from '../contract/order.js'
import { keysetBound } from '../paging/cursor.js'
import { CompiledStatements } from './compiled-sql.js'

const positionOf = (bound: ReturnType<typeof keysetBound>) => bound.position

const at = new Date('2024-01-01T00:11:40.000Z')
const key = (field: string, direction: 'asc' | 'desc', type: string): CursorKey => ({
  field,
  direction,
  type,
})
const newest = [key('createdAt', 'desc', 'DateTime'), key('id', 'desc', 'Int')]

describe('a cursor position as a row-value comparison', () => {
  it('is marked on the where the paging layer writes, keys running one way', () => {
    expect(positionOf(keysetBound(newest, [at, 7001], false, false))).toEqual({
      fields: ['createdAt', 'id'],
      values: [at, 7001],
      operator: 'lt',
    })
    expect(positionOf(keysetBound(newest, [at, 7001], false, true))?.operator).toBe('lte')
    expect(positionOf(keysetBound(newest, [at, 7001], true, false))?.operator).toBe('gt')
    const three = [key('a', 'asc', 'Int'), key('b', 'asc', 'String'), key('c', 'asc', 'Int')]
    expect(positionOf(keysetBound(three, [1, 'x', 3], true, true))).toEqual({
      fields: ['a', 'b', 'c'],
      values: [1, 'x', 3],
      operator: 'lte',
    })
    // A prefix of the key: the fields the values are for.
    expect(positionOf(keysetBound(three, [1, 'x'], false, false))?.fields).toEqual(['a', 'b'])
  })

  it('leaves keys running both ways, null bounds and single keys unmarked', () => {
    const mixed = [key('createdAt', 'desc', 'DateTime'), key('id', 'asc', 'Int')]
    expect(positionOf(keysetBound(mixed, [at, 3], false, false))).toBeUndefined()
    expect(positionOf(keysetBound(newest, [null, 3], false, false))).toBeUndefined()
    // Prisma leaves an undefined bound out: not a row value's null.
    expect(positionOf(keysetBound(newest, [at, undefined], false, false))).toBeUndefined()
    expect(positionOf(keysetBound(newest, [at], false, false))).toBeUndefined()
  })

  it('hands over the where Prisma reads beside it, as it is written without one', () => {
    const { where } = keysetBound(newest, [at, 7001], false, false)
    expect(Reflect.ownKeys(where)).toEqual(['AND'])
    expect(where).toEqual({
      AND: [{ createdAt: { lte: at } }, { OR: [{ createdAt: { lt: at } }, { id: { lt: 7001 } }] }],
    })
  })

  it('is written as one comparison where the database reads it as one index range', () => {
    const model = {
      select: 'SELECT "id", "createdAt" FROM "Event"',
      columns: { id: ['id', 'Int'], createdAt: ['created_at', 'DateTime'] },
    } as const
    const past = keysetBound(newest, [at, 7001], false, true)
    const where = { AND: [{ id: { gt: 0 } }, past.where] }
    const position = past.position && { where: past.where, at: past.position }
    const written = (provider: string) =>
      new CompiledStatements(model, provider, '"Event"').rows({ where, take: 31, position })
    expect(written('sqlite')).toMatchObject({
      sql: `${model.select} WHERE ("id" > ? AND ("created_at", "id") <= (?, ?)) LIMIT ?`,
      args: [0, at, 7001, 31],
    })
    expect(written('postgresql')?.sql).toBe(
      `${model.select} WHERE ("id" > $1 AND ("created_at", "id") <= ($2, $3)) LIMIT $4`
    )
    expect(written('mysql')?.sql).toBe(
      'SELECT "id", "createdAt" FROM "Event" WHERE (`id` > ? AND (`created_at` <= ? AND (`created_at` < ? OR `id` <= ?))) LIMIT ?'
    )
    // The same where without its position is written as it is.
    expect(new CompiledStatements(model, 'sqlite', '"Event"').rows({ where, take: 31 })?.sql).toBe(
      `${model.select} WHERE ("id" > ? AND ("created_at" <= ? AND ("created_at" < ? OR "id" <= ?))) LIMIT ?`
    )
    // A position names the part of the where it is: an equal copy is written as it is.
    const copy = { AND: [{ id: { gt: 0 } }, { ...past.where }] }
    expect(
      new CompiledStatements(model, 'sqlite', '"Event"').rows({ where: copy, take: 31, position })
        ?.sql
    ).toBe(
      `${model.select} WHERE ("id" > ? AND ("created_at" <= ? AND ("created_at" < ? OR "id" <= ?))) LIMIT ?`
    )
  })
})
