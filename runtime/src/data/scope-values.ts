/**
 * @module
 * A row scope's values checked against the columns they are compared with, before any database
 * reads them: a value Prisma refuses (a text for an `Int`), or takes on one database and refuses on
 * another (a fraction for an `Int`), is a fault of the scope, answered alike on every database and
 * engine (docs/security.md, "Faulty scopes").
 */

import type { CompiledColumn } from '../contract/model-source.js'
import { prismaTakes } from '../values/prisma-value.js'

type Where = Record<string, unknown>
type Columns = Readonly<Record<string, CompiledColumn>>

/** The comparisons whose value is one of the column's (or null). */
const SINGLE = new Set(['equals', 'lt', 'lte', 'gt', 'gte', 'contains', 'startsWith', 'endsWith'])
/** The comparisons whose value is a list of the column's. */
const LISTS = new Set(['in', 'notIn'])

/**
 * The first value of `where` its column does not take, as `path (type)`, or undefined. Conditions
 * on a field that is not one of `columns` (a relation) are Prisma's to check.
 */
export function misfitIn(where: Where, columns: Columns, path = ''): string | undefined {
  for (const [key, value] of Object.entries(where)) {
    const at = path === '' ? key : `${path}.${key}`
    if (key === 'AND' || key === 'OR' || key === 'NOT') {
      const items = Array.isArray(value) ? value : [value]
      for (const [index, item] of items.entries()) {
        const inner = misfitIn(
          item as Where,
          columns,
          Array.isArray(value) ? `${at}[${index}]` : at
        )
        if (inner !== undefined) return inner
      }
      continue
    }
    const column = columns[key]
    if (column === undefined) continue
    const misfit = conditionMisfit(value, column, at)
    if (misfit !== undefined)
      return `${misfit} (${column[2] ? `optional ${column[1]}` : column[1]})`
  }
  return undefined
}

/**
 * The path of the first value of one field's condition its column does not take (null for a
 * required column, an enum's unknown value), or undefined.
 */
function conditionMisfit(
  condition: unknown,
  column: CompiledColumn,
  at: string
): string | undefined {
  const [, type, optional, values] = column
  const takes = (value: unknown) =>
    value === null
      ? optional === true
      : prismaTakes(value, type) && (values === undefined || values.includes(value as string))
  if (!isOperators(condition, type)) return takes(condition) ? undefined : at
  for (const [operator, value] of Object.entries(condition as Where)) {
    const path = `${at}.${operator}`
    if (operator === 'not') {
      const inner = conditionMisfit(value, column, path)
      if (inner !== undefined) return inner
    } else if (SINGLE.has(operator)) {
      if (!takes(value)) return path
    } else if (LISTS.has(operator)) {
      if (!Array.isArray(value)) return path
      const index = value.findIndex((item) => item === null || !takes(item))
      if (index >= 0) return `${path}[${index}]`
    }
  }
  return undefined
}

/** Whether a field's condition is an object of operators rather than a value of the column. */
function isOperators(condition: unknown, type: string): boolean {
  if (typeof condition !== 'object' || condition === null || Array.isArray(condition)) return false
  if (type === 'Json') return false
  return (
    Object.getPrototypeOf(condition) === Object.prototype ||
    Object.getPrototypeOf(condition) === null
  )
}
