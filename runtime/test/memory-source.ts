/**
 * An in-memory CollectionSource for pure tests: rows in a key order, filtered by the `where` the
 * `prisma` engine's writer writes of a cursor position, which a tiny evaluator reads (AND, OR, equality, lt/gt/lte/gte), with every window recorded.
 */
import type { CursorKey } from '../src/contract/order.js'
import { prismaWhere } from '../src/data/prisma7/where.js'
import type { CollectionSource, RowWindow } from '../src/paging/types.js'

export type Row = Record<string, unknown>
export type Where = Record<string, unknown>

export function compare(a: unknown, b: unknown): number {
  if (a instanceof Date && b instanceof Date) return Math.sign(a.getTime() - b.getTime())
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0
  throw new Error(`cannot compare ${String(a)} (${typeof a}) with ${String(b)} (${typeof b})`)
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype
  )
}

/** A tiny evaluator of Prisma `where` objects: AND, OR, equality, lt/gt/lte/gte. */
export function matches(row: Row, where: unknown): boolean {
  if (!isPlainObject(where)) throw new Error(`not a where: ${String(where)}`)
  return Object.entries(where).every(([name, condition]) => {
    if (name === 'AND' || name === 'OR') {
      if (!Array.isArray(condition)) throw new Error(`${name} needs an array`)
      return name === 'AND'
        ? condition.every((part) => matches(row, part))
        : condition.some((part) => matches(row, part))
    }
    if (!(name in row)) throw new Error(`unknown field ${name}`)
    const value = row[name]
    if (!isPlainObject(condition)) return compare(value, condition) === 0
    return Object.entries(condition).every(([operator, operand]) => {
      const order = compare(value, operand)
      switch (operator) {
        case 'lt':
          return order < 0
        case 'gt':
          return order > 0
        case 'lte':
          return order <= 0
        case 'gte':
          return order >= 0
        default:
          throw new Error(`unknown operator ${operator}`)
      }
    })
  })
}

export function byKey(keys: readonly CursorKey[]) {
  return (a: Row, b: Row): number => {
    for (const { field, direction } of keys) {
      const order = compare(a[field], b[field])
      if (order !== 0) return direction === 'asc' ? order : -order
    }
    return 0
  }
}

/** Rows in the key order (reversed when reading backward), filtered by `where`; records windows. */
export function memorySource(
  rows: Row[],
  keys: readonly CursorKey[]
): CollectionSource<Row, Where> & { windows: RowWindow<Where>[] } {
  const windows: RowWindow<Where>[] = []
  return {
    windows,
    async findMany(given) {
      // The rows past a position as Prisma's `where`, which the evaluator reads.
      const { past, ...rest } = given
      const window: RowWindow<Where> = past
        ? { ...rest, where: prismaWhere({ kind: 'past', past }) as Where }
        : given
      windows.push(window)
      const found = rows.filter((row) => window.where === undefined || matches(row, window.where))
      found.sort(byKey(keys))
      if (window.backward) found.reverse()
      const skip = window.skip ?? 0
      return found.slice(skip, window.take === undefined ? undefined : skip + window.take)
    },
    async count() {
      return rows.length
    },
  }
}
