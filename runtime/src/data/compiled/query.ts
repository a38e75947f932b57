/**
 * @module
 * One statement of the `compiled` engine being written (compiled/sql.ts writes whole statements
 * with it): its parameters in order, each value one, and the `WHERE` and `ORDER BY` of the plan's
 * conditions (plan/condition.ts) and order on one model's columns; conditions and orders through
 * relations are compiled/relations.ts's. What it cannot write (a relation the model's compiled
 * form does not hold, a test the plan carries opaque) answers undefined.
 */

import type { CompiledColumn, CompiledModel, TableName } from '../../contract/model-source.js'
import type { OrderField } from '../../contract/order.js'
import { type Dialect, qualifiedTable } from '../../database/dialects.js'
import { isDecimal } from '../../decimal.js'
import { allOf, type Condition, type FieldTest } from '../../plan/condition.js'
import { pastCondition } from '../../plan/keyset.js'
import { type KeysetPast, type KeysetPosition, rowValueOf } from '../../plan/keyset-position.js'
import { storedTest, storedValues } from './enum-names.js'
import {
  type ConditionScope,
  type ConditionWriter,
  type Reading,
  relatedColumn,
  relationSql,
} from './relations.js'

/** How a driver adapter is told a parameter's type (`@prisma/driver-adapter-utils`' ArgType). */
export interface ArgType {
  scalarType: string
  arity: 'scalar'
}

/** One statement and its parameters, as a driver adapter's `queryRaw` takes it. */
export interface SqlQuery {
  sql: string
  args: unknown[]
  argTypes: ArgType[]
}

const SCALAR_TYPES: Record<string, string> = {
  String: 'string',
  Int: 'int',
  BigInt: 'bigint',
  Float: 'float',
  Decimal: 'decimal',
  Boolean: 'boolean',
  DateTime: 'datetime',
  Json: 'json',
  Bytes: 'bytes',
}

const COMPARISONS: Record<string, string> = { lt: '<', lte: '<=', gt: '>', gte: '>=' }
/** The LIKE pattern of each pattern test: what comes before and after the text. */
const PATTERNS: Record<string, readonly [string, string]> = {
  contains: ['%', '%'],
  startsWith: ['', '%'],
  endsWith: ['%', ''],
}

/** One statement being written: its parameters in order, and the aliases of its subqueries. */
export class QueryBuilder implements ConditionWriter {
  private readonly args: unknown[] = []
  private readonly argTypes: ArgType[] = []
  private aliases = 0
  /** What the condition being written selects for: see ConditionWriter. */
  reading: Reading = 'page'
  /** The statement's own table, unaliased: its columns unqualified. */
  private readonly top: ConditionScope
  readonly models: CompiledModel['models']

  constructor(
    private readonly model: CompiledModel,
    private readonly dialect: Dialect,
    private readonly provider: string,
    table: string
  ) {
    this.models = model.models
    const relations = (model.name && model.models?.[model.name]?.relations) || {}
    this.top = { columns: model.columns, relations, prefix: '', row: table }
  }

  quote(name: string): string {
    return this.dialect.quote(name)
  }

  table(table: TableName): string {
    return qualifiedTable(this.provider, table)
  }

  alias(): string {
    this.aliases += 1
    return `r${this.aliases}`
  }

  statement(sql: string): SqlQuery {
    return { sql, args: this.args, argTypes: this.argTypes }
  }

  /** A parameter holding `value`, as the adapter's `mapArg` reads its type. */
  param(value: unknown, scalarType: string): string {
    this.args.push(argument(value))
    this.argTypes.push({ scalarType, arity: 'scalar' })
    return this.dialect.placeholder(this.args.length)
  }

  /**
   * ` WHERE …` of a condition and the rows past a position (empty without either), or undefined.
   * The position is one row-value comparison where the database reads one and it is one.
   * `reading`: what the rows are read for (ConditionWriter).
   */
  where(
    condition: Condition | undefined,
    past?: KeysetPast | undefined,
    reading: Reading = 'page'
  ): string | undefined {
    this.reading = reading
    const position = past && this.dialect.rowValues ? rowValueOf(past) : undefined
    const row = position?.fields.every((field) => this.model.columns[field]) ? position : undefined
    const beyond = row || !past ? undefined : pastCondition(past)
    // Parameters in the order of the text: the condition's, then the position's.
    const written = this.condition(allOf([condition, beyond]), this.top, false)
    if (written === undefined) return undefined
    const parts = [written, row && this.rowComparison(row)].filter(
      (part): part is string => !!part && part !== '1=1'
    )
    return parts.length === 0 ? '' : ` WHERE ${parts.join(' AND ')}`
  }

  /**
   * Whether a row holds `condition`, as a column of the statement's own rows: `CASE WHEN … THEN
   * 1 ELSE 0 END` (a field shown on some rows only, data/shown-fields.ts); undefined when it
   * cannot be written here.
   */
  holds(condition: Condition): string | undefined {
    this.reading = 'page'
    const written = this.condition(condition, this.top, false)
    return written === undefined ? undefined : `CASE WHEN ${written} THEN 1 ELSE 0 END`
  }

  /**
   * ` ORDER BY …`, a field through to-one relations (`author.name`) as its related row's value;
   * undefined for an order it cannot write.
   */
  orderBy(order: readonly OrderField[]): string | undefined {
    const parts: string[] = []
    for (const { field, direction } of order) {
      const value = relatedColumn(this, this.top, field.split('.'))
      if (!value) return undefined
      parts.push(`${value} ${direction.toUpperCase()}`)
    }
    return parts.length === 0 ? '' : ` ORDER BY ${parts.join(', ')}`
  }

  /**
   * A condition on `scope`'s model as SQL (`1=1` for every row), or undefined when it cannot be
   * written here; `negated` under an odd number of NOTs (compiled/relations.ts).
   */
  condition(
    condition: Condition | undefined,
    scope: ConditionScope,
    negated: boolean
  ): string | undefined {
    if (condition === undefined) return '1=1'
    switch (condition.kind) {
      case 'never':
        return '1=0'
      case 'and':
      case 'or':
        return this.group(condition.kind === 'and' ? 'AND' : 'OR', condition.parts, scope, negated)
      case 'not': {
        const part = this.condition(condition.part, scope, !negated)
        return part === undefined ? undefined : `NOT (${part})`
      }
      case 'field':
        return this.field(condition.field, condition.test, scope, negated)
      case 'relation':
        return relationSql(this, scope, condition, negated)
      case 'past':
        return this.condition(pastCondition(condition.past), scope, negated)
    }
  }

  private group(
    joiner: 'AND' | 'OR',
    parts: readonly Condition[],
    scope: ConditionScope,
    negated: boolean
  ): string | undefined {
    const written: string[] = []
    for (const part of parts) {
      const sql = this.condition(part, scope, negated)
      if (sql === undefined) return undefined
      written.push(sql)
    }
    return `(${written.join(` ${joiner} `)})`
  }

  /** `(a, b) < (?, ?)` of a position whose every field is a column. */
  private rowComparison({ fields, values, operator }: KeysetPosition): string {
    const columns = fields.map((field) => this.model.columns[field] as CompiledColumn)
    const quoted = columns.map((column) => this.dialect.quote(column[0]))
    const types = columns.map((column) => column[1])
    const stored = storedValues(this.model.enums, types, values)
    const params = columns.map((column, index) =>
      this.param(stored[index], SCALAR_TYPES[column[1]] ?? 'enum')
    )
    return `(${quoted.join(', ')}) ${COMPARISONS[operator]} (${params.join(', ')})`
  }

  /**
   * One test of a column, or of a to-one relation's null (`{ author: null }`: no related row);
   * undefined when `name` is neither or the test is not written here.
   */
  private field(
    name: string,
    test: FieldTest,
    scope: ConditionScope,
    negated: boolean
  ): string | undefined {
    const column = scope.columns[name]
    if (!column) {
      const missing = test.op === 'null' || (test.op === 'not' && test.test.op === 'null')
      if (!missing || !scope.relations[name]) return undefined
      const quantifier = test.op === 'null' ? 'isNot' : 'is'
      return relationSql(this, scope, { kind: 'relation', relation: name, quantifier }, negated)
    }
    const quoted = `${scope.prefix}${this.dialect.quote(column[0])}`
    const stored = storedTest(this.model.enums, column[1], test)
    return this.test(quoted, SCALAR_TYPES[column[1]] ?? 'enum', stored)
  }

  private test(column: string, type: string, test: FieldTest): string | undefined {
    switch (test.op) {
      case 'null':
        return `${column} IS NULL`
      case 'contains':
      case 'startsWith':
      case 'endsWith':
        return this.like(
          column,
          PATTERNS[test.op] as [string, string],
          test.pattern,
          !!test.caseless
        )
      case 'equals':
        // Prisma writes `equals` caseless as ILIKE, the value a pattern.
        if (test.caseless)
          return typeof test.value === 'string'
            ? this.like(column, ['', ''], test.value, true)
            : undefined
        return `${column} = ${this.param(test.value, type)}`
      case 'in': {
        if (test.caseless || test.values.some((value) => value === null)) return undefined
        if (test.values.length === 0) return '1=0'
        return `${column} IN (${test.values.map((item) => this.param(item, type)).join(', ')})`
      }
      case 'jsonNull':
        return this.dialect.jsonNull?.(column)
      case 'not':
        return this.not(column, test.test)
      case 'notIn':
      case 'opaque':
        return undefined
      default:
        if (test.caseless || test.value === null) return undefined
        return `${column} ${COMPARISONS[test.op]} ${this.param(test.value, type)}`
    }
  }

  /**
   * A column's `not`: `IS NOT NULL`, a Json column's value neither null, and `NOT LIKE` of one
   * pattern (`not: { startsWith: 'ann_' }`, the rest of the text after an exact match's pattern),
   * as Prisma writes them; undefined for any other.
   */
  private not(column: string, test: FieldTest): string | undefined {
    if (test.op === 'null') return `${column} IS NOT NULL`
    if (test.op === 'jsonNull') {
      const isNull = this.dialect.jsonNull?.(column)
      return isNull && `NOT ${isNull}`
    }
    if (test.op === 'contains' || test.op === 'startsWith' || test.op === 'endsWith') {
      if (test.caseless) return undefined
      return this.like(column, PATTERNS[test.op] as [string, string], test.pattern, false, true)
    }
    return undefined
  }

  /**
   * A LIKE on text, as Prisma writes `contains`/`startsWith`/`endsWith` (and `equals` with
   * `mode: 'insensitive'`): the text is a pattern, escaped by the filters as the database reads
   * escapes (docs/filters.md). PostgreSQL and MySQL read a backslash as LIKE's escape by default;
   * SQLite's LIKE reads one only when the statement names it, which Prisma's never does: here it
   * is named, and the layer reads with this SQL the patterns holding one (engines.ts).
   */
  private like(
    column: string,
    [before, after]: readonly [string, string],
    text: string,
    insensitive: boolean,
    negated = false
  ): string | undefined {
    if (insensitive && this.dialect.caseless !== 'mode') return undefined
    if (this.dialect.likeEscape === 'brackets') return undefined
    const pattern = this.param(`${before}${text}${after}`, 'string')
    const named = this.dialect.likeEscape === 'none' ? ` ESCAPE '\\'` : ''
    const operator = `${negated ? 'NOT ' : ''}${insensitive ? 'ILIKE' : 'LIKE'}`
    return `${column} ${operator} ${pattern}${named}`
  }
}

/** A value as the driver adapters' `mapArg` takes it: decimals and big integers as text. */
function argument(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString()
  if (isDecimal(value)) return value.toFixed()
  return value
}
