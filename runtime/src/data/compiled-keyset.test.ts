import { describe, expect, it } from 'vitest'
import { keysetWhere } from '../paging/cursor.js'
import type { CursorKey } from '../paging/types.js'
import { keysetOf } from './compiled-keyset.js'
import { CompiledStatements } from './compiled-sql.js'

const at = new Date('2024-01-01T00:11:40.000Z')
const key = (field: string, direction: 'asc' | 'desc', type: string): CursorKey => ({
  field,
  direction,
  type,
})
const newest = [key('createdAt', 'desc', 'DateTime'), key('id', 'desc', 'Int')]
/** The items of the `AND` the paging layer writes for a position. */
const itemsOf = (where: Record<string, unknown>) => where.AND as unknown[]

describe('a cursor position as a row-value comparison', () => {
  it('reads the positions the paging layer writes, keys running one way', () => {
    expect(keysetOf(itemsOf(keysetWhere(newest, [at, 7001], false, false)))).toEqual({
      fields: ['createdAt', 'id'],
      values: [at, 7001],
      operator: 'lt',
    })
    expect(keysetOf(itemsOf(keysetWhere(newest, [at, 7001], false, true)))?.operator).toBe('lte')
    expect(keysetOf(itemsOf(keysetWhere(newest, [at, 7001], true, false)))?.operator).toBe('gt')
    const three = [key('a', 'asc', 'Int'), key('b', 'asc', 'String'), key('c', 'asc', 'Int')]
    expect(keysetOf(itemsOf(keysetWhere(three, [1, 'x', 3], true, true)))).toEqual({
      fields: ['a', 'b', 'c'],
      values: [1, 'x', 3],
      operator: 'lte',
    })
  })

  it('leaves keys running both ways, null bounds and other conditions as they are', () => {
    const mixed = [key('createdAt', 'desc', 'DateTime'), key('id', 'asc', 'Int')]
    expect(keysetOf(itemsOf(keysetWhere(mixed, [at, 3], false, false)))).toBeUndefined()
    expect(keysetOf(itemsOf(keysetWhere(newest, [null, 3], false, false)))).toBeUndefined()
    // Prisma leaves an undefined bound out: not a row value's null.
    expect(keysetOf(itemsOf(keysetWhere(newest, [at, undefined], false, false)))).toBeUndefined()
    expect(
      keysetOf([{ id: { lte: 3 } }, { OR: [{ id: { lt: 3 } }, { title: { lt: 'a' } }] }])
    ).toBeUndefined()
    expect(keysetOf([{ id: { lte: 3 } }, { OR: [{ id: { lt: 3 } }] }])).toBeUndefined()
    expect(keysetOf([{ id: 3 }, { title: 'a' }])).toBeUndefined()
  })

  it('is written as one comparison where the database reads it as one index range', () => {
    const model = {
      select: 'SELECT "id", "createdAt" FROM "Event"',
      columns: { id: ['id', 'Int'], createdAt: ['created_at', 'DateTime'] },
    } as const
    const where = { AND: [{ id: { gt: 0 } }, keysetWhere(newest, [at, 7001], false, true)] }
    const written = (provider: string) =>
      new CompiledStatements(model, provider, '"Event"').rows({ where, take: 31 })
    expect(written('sqlite')).toMatchObject({
      sql: `${model.select} WHERE ("id" > ? AND ("created_at", "id") <= (?, ?)) LIMIT ?`,
      args: [0, at, 7001, 31],
    })
    expect(written('postgresql')?.sql).toBe(
      `${model.select} WHERE ("id" > $1 AND ("created_at", "id") <= ($2, $3)) LIMIT $4`
    )
    expect(written('mysql')?.sql).toBe(
      'SELECT "id", "createdAt" FROM "Event" WHERE (`id` > ? AND (`created_at` <= ? AND (`created_at` < ? OR (`created_at` = ? AND `id` < ?) OR (`created_at` = ? AND `id` = ?)))) LIMIT ?'
    )
  })
})
