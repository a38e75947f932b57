/**
 * @module
 * The `compiled` engine's conditions and orders through relations (compiled/sql.ts writes the
 * rest): correlated `EXISTS` subqueries over the related model's table (through Prisma's join
 * table for an implicit many-to-many relation), an order by a to-one relation's field a scalar
 * subquery; in a count, a `some` or to-one test under no NOT is an `IN` of the related rows' keys
 * (Reading). Undefined where the relation is not in the model's compiled form.
 *
 * Each holds exactly where Prisma 7's own SQL does, NULLs included. Prisma writes `some`, `none`
 * and `every` as `EXISTS` / `NOT EXISTS` (`every` over the rows failing the condition), true or
 * false; a to-one relation's `is` as a LEFT JOIN tested `condition AND related key IS NOT NULL`,
 * which is unknown (NULL) when the related row is there and the condition unknown on it (a NULL
 * compared), `isNot` as its negation, and `is: null` as the foreign key's `IS NULL`. An `EXISTS`
 * is never unknown, so a to-one test is written by its polarity: where an odd number of NOTs
 * stand above it (`negated`), what decides the row is whether the test is false, and the related
 * row is asked for a condition that is not false (`IS NOT FALSE`); elsewhere, whether it is true.
 */

import type {
  CompiledColumn,
  CompiledModels,
  CompiledRelation,
  CompiledTable,
  TableName,
} from '../../contract/model-source.js'
import type { Condition, RelationCondition } from '../../plan/condition.js'

/** Where a condition is written: a model and how its row is named in the statement. */
export interface ConditionScope {
  columns: Readonly<Record<string, CompiledColumn>>
  relations: Readonly<Record<string, CompiledRelation>>
  /** What its columns are prefixed with (`"r1".`; empty for the statement's own table, unaliased). */
  prefix: string
  /** How a subquery names its row: the table (`"Book"`) or its alias. */
  row: string
}

/**
 * What a condition selects rows for. A `page` is read in its order and stops at its last row: a
 * test through a relation is an `EXISTS` of each row read, so that the database may walk the
 * order's index and test rows until the page is full. A `count` reads every row the condition
 * holds: the test is the row's key `IN` the related rows' keys, so that the database may start
 * from the related rows: SQLite tests an `EXISTS` on every row of the table
 * (docs/performance.md#counts-through-relations).
 */
export type Reading = 'page' | 'count'

/** What the relations' writer asks of the statement being written. */
export interface ConditionWriter {
  readonly models: CompiledModels | undefined
  /** What the condition being written selects rows for. */
  readonly reading: Reading
  quote(name: string): string
  table(table: TableName): string
  /** A table alias not yet used in the statement. */
  alias(): string
  /** `condition` on `scope`'s model, by its polarity; undefined when it cannot be written. */
  condition(
    condition: Condition | undefined,
    scope: ConditionScope,
    negated: boolean
  ): string | undefined
}

const MANY = new Set(['some', 'every', 'none'])

/** A test through one of `scope`'s relations, or undefined when it cannot be written here. */
export function relationSql(
  writer: ConditionWriter,
  scope: ConditionScope,
  test: RelationCondition,
  negated: boolean
): string | undefined {
  const relation = scope.relations[test.relation]
  const target = relation && writer.models?.[relation.model]
  if (!relation || !target || !!relation.many !== MANY.has(test.quantifier)) return undefined
  if (test.quantifier === 'isNot') {
    const is = relationSql(writer, scope, { ...test, quantifier: 'is' }, !negated)
    return is === undefined ? undefined : `NOT (${is})`
  }
  const [own] = relation.on
  if (
    test.quantifier === 'is' &&
    test.condition === undefined &&
    relation.owned &&
    own &&
    relation.on.length === 1
  )
    return `${scope.prefix}${writer.quote(own[0])} IS NOT NULL`
  const driven = drivenByRelated(writer, scope, relation, target, test, negated)
  if (driven !== null) return driven
  const { from, inner } = related(writer, scope, relation, target)
  const held = (polarity: boolean) => writer.condition(test.condition, inner, polarity)
  let sql: string | undefined
  switch (test.quantifier) {
    case 'some':
    case 'none': {
      const where = held(false)
      sql = where && `${test.quantifier === 'none' ? 'NOT ' : ''}EXISTS (${from} AND ${where})`
      break
    }
    case 'every': {
      const where = test.condition === undefined ? '1=1' : held(true)
      sql = where && `NOT EXISTS (${from} AND NOT (${where}))`
      break
    }
    default: {
      const where = held(negated)
      sql = where && `EXISTS (${from} AND ${negated ? `(${where}) IS NOT FALSE` : where})`
    }
  }
  return sql
}

/**
 * A test a count reads (Reading) as `"sellerId" IN (SELECT "r1"."id" FROM "Seller" AS "r1" WHERE
 * …)`: `some`, and a to-one test, where no NOT stands above it and one column ties the two rows
 * without a join table; null for any other, written as an `EXISTS`. Both hold for the same rows:
 * where they differ, the `IN` is unknown where the `EXISTS` is false (a NULL key on either side),
 * and with no NOT above, an unknown test selects the row no more than a false one.
 */
function drivenByRelated(
  writer: ConditionWriter,
  scope: ConditionScope,
  relation: CompiledRelation,
  target: CompiledTable,
  test: RelationCondition,
  negated: boolean
): string | null | undefined {
  const [tie] = relation.on
  const quantified = test.quantifier === 'some' || test.quantifier === 'is'
  if (writer.reading !== 'count' || negated || !quantified || relation.through || !tie) return null
  if (relation.on.length !== 1) return null
  const { alias, inner } = aliased(writer, target)
  const where = writer.condition(test.condition, inner, false)
  if (where === undefined) return undefined
  const [own, other] = tie
  const rows = `SELECT ${alias}.${writer.quote(other)} FROM ${writer.table(target.table)} AS ${alias}`
  return `${scope.row}.${writer.quote(own)} IN (${rows}${where === '1=1' ? '' : ` WHERE ${where}`})`
}

/** A new alias of `target`'s table in the statement, and the scope of its row. */
function aliased(
  writer: ConditionWriter,
  target: CompiledTable
): { alias: string; inner: ConditionScope } {
  const alias = writer.quote(writer.alias())
  return {
    alias,
    inner: {
      columns: target.columns,
      relations: target.relations,
      prefix: `${alias}.`,
      row: alias,
    },
  }
}

/**
 * `SELECT 1 FROM … WHERE <the related rows of scope's row>` (its conditions to follow with
 * ` AND …`), and the related model's scope inside it.
 */
function related(
  writer: ConditionWriter,
  scope: ConditionScope,
  relation: CompiledRelation,
  target: CompiledTable
): { from: string; inner: ConditionScope } {
  const { alias, inner } = aliased(writer, target)
  const pairs = (left: string, right: string, on: CompiledRelation['on']) =>
    on.map(([a, b]) => `${left}.${writer.quote(b)} = ${right}${writer.quote(a)}`).join(' AND ')
  const own = (row: string) => pairs(row, `${scope.row}.`, relation.on)
  if (!relation.through)
    return {
      from: `SELECT 1 FROM ${writer.table(target.table)} AS ${alias} WHERE ${own(alias)}`,
      inner,
    }
  const join = writer.quote(writer.alias())
  const on = pairs(alias, `${join}.`, relation.through.on)
  return {
    from: `SELECT 1 FROM ${writer.table(relation.through.table)} AS ${join} INNER JOIN ${writer.table(target.table)} AS ${alias} ON ${on} WHERE ${own(join)}`,
    inner,
  }
}

/**
 * The value of a field through to-one relations (`author.name`, `book.author.name`) for an
 * order: a scalar subquery, NULL where a related row is missing (as Prisma's LEFT JOIN reads it).
 */
export function relatedColumn(
  writer: ConditionWriter,
  scope: ConditionScope,
  path: readonly string[]
): string | undefined {
  const [name, ...rest] = path
  if (name === undefined) return undefined
  if (rest.length === 0) {
    const column = scope.columns[name]
    return column && `${scope.prefix}${writer.quote(column[0])}`
  }
  const relation = scope.relations[name]
  const target = relation && writer.models?.[relation.model]
  if (!relation || !target || relation.many) return undefined
  const { from, inner } = related(writer, scope, relation, target)
  const value = relatedColumn(writer, inner, rest)
  return value && `(${from.replace('SELECT 1', `SELECT ${value}`)})`
}
