import { describe, expect, it } from 'vitest'
import { onField } from '../plan/condition.js'
import { readWhere } from '../plan/scope-reader.js'
import { misfitIn as misfitOf } from './scope-values.js'

/** The misfit of a scope written as `where`. */
const misfitIn = (where: Record<string, unknown>, columns: Parameters<typeof misfitOf>[1]) => {
  const condition = readWhere(where)
  return condition && misfitOf(condition, columns)
}

const columns = {
  id: ['id', 'Int'],
  tenant: ['tenant_id', 'BigInt'],
  name: ['name', 'String'],
  price: ['price', 'Decimal'],
  deletedAt: ['deleted_at', 'DateTime', true],
  genre: ['genre', 'Genre', false, ['FICTION', 'POETRY']],
} as const

describe('misfitIn', () => {
  it('leaves the tests the plan carries for Prisma to Prisma', () => {
    const opaque = onField('tags', { op: 'opaque', operators: { has: 3 } })
    expect(misfitOf(opaque, columns)).toBeUndefined()
    expect(misfitOf(onField('id', { op: 'opaque', operators: { in: 3 } }), columns)).toBeUndefined()
  })

  it('takes the values Prisma takes for each column', () => {
    for (const where of [
      { id: 3, tenant: 7n, name: 'Ann', price: '1.50' },
      { tenant: 7, price: 2 },
      { deletedAt: null, genre: { in: ['FICTION'] } },
      { deletedAt: { lt: '2024-01-01T00:00:00Z' }, id: { not: { in: [1, 2] } } },
      { OR: [{ id: { gte: 1 } }, { NOT: { name: { startsWith: 'A' } } }] },
      // A relation is Prisma's to check.
      { author: { is: { id: 'anything' } } },
    ])
      expect(misfitIn(where, columns), Object.keys(where).join()).toBeUndefined()
  })

  it('names the first value a column does not take', () => {
    expect(misfitIn({ id: '3' }, columns)).toBe('id (Int)')
    expect(misfitIn({ id: 2.5 }, columns)).toBe('id (Int)')
    expect(misfitIn({ id: 2 ** 40 }, columns)).toBe('id (Int)')
    expect(misfitIn({ id: null }, columns)).toBe('id (Int)')
    expect(misfitIn({ deletedAt: { gt: '2024-01-01' } }, columns)).toBe(
      'deletedAt.gt (optional DateTime)'
    )
    expect(misfitIn({ AND: [{ name: 123 }, { id: 1 }] }, columns)).toBe('and[0].name (String)')
    expect(misfitIn({ genre: 'NOPE' }, columns)).toBe('genre (Genre)')
    expect(misfitIn({ id: { in: [1, null] } }, columns)).toBe('id.in[1] (Int)')
    expect(misfitIn({ price: '1e3' }, columns)).toBe('price (Decimal)')
    expect(misfitIn({ NOT: [{ id: 1 }, { tenant: 'x' }] }, columns)).toBe(
      'and[1].not.tenant (BigInt)'
    )
  })
})
