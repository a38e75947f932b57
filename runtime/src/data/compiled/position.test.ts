import { describe, expect, it } from 'vitest'
import type { OrderField } from '../../contract/order.js'
import { fieldEquals, onField } from '../../plan/condition.js'
import { type KeysetPast, rowValueOf } from '../../plan/keyset-position.js'
import { prismaWhere } from '../prisma7/where.js'
import { CompiledStatements } from './sql.js'

const at = new Date('2024-01-01T00:11:40.000Z')
const key = (field: string, direction: 'asc' | 'desc'): OrderField => ({ field, direction })
const newest = [key('createdAt', 'desc'), key('id', 'desc')]
const past = (
  keys: readonly OrderField[],
  values: readonly unknown[],
  backward: boolean,
  inclusive: boolean
): KeysetPast => ({ keys, values, backward, inclusive })

describe('a cursor position as a row-value comparison', () => {
  it('is one where every key runs one way', () => {
    expect(rowValueOf(past(newest, [at, 7001], false, false))).toEqual({
      fields: ['createdAt', 'id'],
      values: [at, 7001],
      operator: 'lt',
    })
    expect(rowValueOf(past(newest, [at, 7001], false, true))?.operator).toBe('lte')
    expect(rowValueOf(past(newest, [at, 7001], true, false))?.operator).toBe('gt')
    const three = [key('a', 'asc'), key('b', 'asc'), key('c', 'asc')]
    expect(rowValueOf(past(three, [1, 'x', 3], true, true))).toEqual({
      fields: ['a', 'b', 'c'],
      values: [1, 'x', 3],
      operator: 'lte',
    })
    // A prefix of the key: the fields the values are for.
    expect(rowValueOf(past(three, [1, 'x'], false, false))?.fields).toEqual(['a', 'b'])
  })

  it('is none for keys running both ways, null bounds and single keys', () => {
    const mixed = [key('createdAt', 'desc'), key('id', 'asc')]
    expect(rowValueOf(past(mixed, [at, 3], false, false))).toBeUndefined()
    expect(rowValueOf(past(newest, [null, 3], false, false))).toBeUndefined()
    // Prisma leaves an undefined bound out: not a row value's null.
    expect(rowValueOf(past(newest, [at, undefined], false, false))).toBeUndefined()
    expect(rowValueOf(past(newest, [at], false, false))).toBeUndefined()
  })

  it('is written for Prisma as the nested comparison, each field once with each operator', () => {
    expect(prismaWhere({ kind: 'past', past: past(newest, [at, 7001], false, false) })).toEqual({
      createdAt: { lte: at },
      OR: [{ createdAt: { lt: at } }, { id: { lt: 7001 } }],
    })
  })

  it('is written as one comparison where the database reads it as one index range', () => {
    const model = {
      select: 'SELECT "id", "createdAt" FROM "Event"',
      columns: { id: ['id', 'Int'], createdAt: ['created_at', 'DateTime'] },
    } as const
    const condition = onField('id', { op: 'gt', value: 0 })
    const position = past(newest, [at, 7001], false, true)
    const written = (provider: string) =>
      new CompiledStatements(model, provider, '"Event"').rows({
        condition,
        past: position,
        take: 31,
      })
    expect(written('sqlite')).toMatchObject({
      sql: `${model.select} WHERE "id" > ? AND ("created_at", "id") <= (?, ?) LIMIT ?`,
      args: [0, at, 7001, 31],
    })
    expect(written('postgresql')?.sql).toBe(
      `${model.select} WHERE "id" > $1 AND ("created_at", "id") <= ($2, $3) LIMIT $4`
    )
    // MySQL and MariaDB read no row value as an index range: the nested comparison.
    expect(written('mysql')?.sql).toBe(
      'SELECT "id", "createdAt" FROM "Event" WHERE (`id` > ? AND `created_at` <= ? AND (`created_at` < ? OR `id` <= ?)) LIMIT ?'
    )
    // A position with a null value: the expansion, whose equalities read the null as IS NULL.
    const withNull = past([key('createdAt', 'desc'), key('id', 'desc')], [null, 4], false, false)
    expect(
      new CompiledStatements(model, 'sqlite', '"Event"').rows({ past: withNull })?.sql
    ).toBeUndefined()
    expect(prismaWhere({ kind: 'past', past: withNull })).toEqual({
      createdAt: { lte: null },
      OR: [{ createdAt: { lt: null } }, { createdAt: null, id: { lt: 4 } }],
    })
    expect(fieldEquals('createdAt', null)).toEqual({
      kind: 'field',
      field: 'createdAt',
      test: { op: 'null' },
    })
  })
})
