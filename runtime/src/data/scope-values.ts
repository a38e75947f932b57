/**
 * @module
 * A row scope's values checked against the columns they are compared with, before any database
 * reads them: a value Prisma refuses (a text for an `Int`), or takes on one database and refuses on
 * another (a fraction for an `Int`), is a fault of the scope, answered alike on every database and
 * engine (docs/security.md, "Faulty scopes").
 */

import type { CompiledColumn } from '../contract/model-source.js'
import type { Condition, FieldTest } from '../plan/condition.js'
import { prismaTakes } from '../values/prisma-value.js'

type Columns = Readonly<Record<string, CompiledColumn>>

/**
 * The first value of `condition` its column does not take, as `path (type)`, or undefined. Tests
 * of a field that is not one of `columns` (a relation's) are Prisma's to check.
 */
export function misfitIn(condition: Condition, columns: Columns, path = ''): string | undefined {
  const at = (step: string) => (path === '' ? step : `${path}.${step}`)
  switch (condition.kind) {
    case 'and':
    case 'or':
      for (const [index, part] of condition.parts.entries()) {
        const inner = misfitIn(part, columns, `${at(condition.kind)}[${index}]`)
        if (inner !== undefined) return inner
      }
      return undefined
    case 'not':
      return misfitIn(condition.part, columns, at('not'))
    case 'field': {
      const column = columns[condition.field]
      if (column === undefined) return undefined
      const misfit = testMisfit(condition.test, column, at(condition.field))
      if (misfit === undefined) return undefined
      return `${misfit} (${column[2] ? `optional ${column[1]}` : column[1]})`
    }
    default:
      return undefined
  }
}

/**
 * The path of the first value of one field's test its column does not take (null for a required
 * column, an enum's unknown value), or undefined.
 */
function testMisfit(test: FieldTest, column: CompiledColumn, at: string): string | undefined {
  const [, type, optional, values] = column
  const takes = (value: unknown) =>
    value === null
      ? optional === true
      : prismaTakes(value, type) && (values === undefined || values.includes(value as string))
  const path = `${at}.${test.op}`
  switch (test.op) {
    case 'null':
      return optional === true ? undefined : at
    case 'not':
      return testMisfit(test.test, column, path)
    case 'in':
    case 'notIn': {
      const index = test.values.findIndex((item) => item === null || !takes(item))
      return index >= 0 ? `${path}[${index}]` : undefined
    }
    case 'contains':
    case 'startsWith':
    case 'endsWith':
      return takes(test.pattern) ? undefined : path
    case 'jsonNull':
    case 'opaque':
      // Both nulls of a Json column; a test carried for Prisma to read and check (a Json path, a
      // list's `has`); a list's comparison given one value is the scope reader's fault to find.
      return undefined
    default:
      // A Json column's value is compared whole, whatever its shape.
      if (type === 'Json') return undefined
      return takes(test.value) ? undefined : test.op === 'equals' ? at : path
  }
}
