/**
 * @module
 * The `compiled` engine's statements: the model's `SELECT` (written at generate time) followed by
 * the `WHERE`, `ORDER BY` and window of one read, written from the same Prisma `where`/`orderBy`
 * the `prisma` engine hands to `findMany`, with every value a parameter. Only the shapes the
 * layer's own filters, orders and cursor positions produce are written: anything else (a condition
 * through a relation, an order by a related field, an operator this file does not know) answers
 * undefined, and the layer reads that request with Prisma instead (docs/performance.md).
 */

import type { CompiledModel } from '../contract/model-source.js'
import { type Dialect, dialectOf } from '../database/dialects.js'
import { isDecimal } from '../decimal.js'
import type { KeysetPosition } from '../paging/keyset-position.js'

type Where = Record<string, unknown>

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

/** What a read asks for, in the `prisma` engine's terms. */
export interface ReadArgs {
  where?: Where | undefined
  orderBy?: readonly Where[] | undefined
  skip?: number | undefined
  take?: number | undefined
  /** The part of `where` past a cursor position, and the position (FindManyArgs). */
  position?: { where: Where; at: KeysetPosition } | undefined
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
/** The LIKE pattern of each string filter: what comes before and after the text. */
const PATTERNS: Record<string, readonly [string, string]> = {
  contains: ['%', '%'],
  startsWith: ['', '%'],
  endsWith: ['%', ''],
}

/** The statements of one model on one database. */
export class CompiledStatements {
  private readonly dialect: Dialect

  constructor(
    private readonly model: CompiledModel,
    provider: string,
    private readonly table: string
  ) {
    this.dialect = dialectOf(provider)
  }

  /** The rows of `args`, or undefined when a part of them cannot be written here. */
  rows(args: ReadArgs): SqlQuery | undefined {
    const query = this.builder(args.position)
    const window = this.window(query, args)
    return window === undefined ? undefined : query.statement(`${this.model.select}${window}`)
  }

  /**
   * The rows of `args` with the count of the rows `where` selects as one more column, after the
   * model's: `SELECT "id", …, (SELECT COUNT(*) FROM "Book" WHERE …) AS "total" FROM "Book" WHERE …
   * ORDER BY … LIMIT … OFFSET …`. One statement reads one snapshot on every database (PostgreSQL
   * and InnoDB under any isolation level, SQLite's one read), so the page and its count agree
   * without a transaction; the count's subquery depends on no row of the page, and is read once.
   * An empty page holds no count. Undefined when a part cannot be written here.
   */
  pageAndCount(args: ReadArgs, where: Where | undefined): SqlQuery | undefined {
    const from = ` FROM ${this.table}`
    if (!this.model.select.endsWith(from)) return undefined
    const query = this.builder(args.position)
    const condition = query.where(where)
    if (condition === undefined) return undefined
    const count = `(SELECT COUNT(*) FROM ${this.table}${condition}) AS ${this.countColumn()}`
    const window = this.window(query, args)
    if (window === undefined) return undefined
    const columns = this.model.select.slice(0, -from.length)
    return query.statement(`${columns}, ${count}${from}${window}`)
  }

  /** ` WHERE … ORDER BY … LIMIT … OFFSET …` of `args`, or undefined. */
  private window(query: QueryBuilder, args: ReadArgs): string | undefined {
    const where = query.where(args.where)
    const order = query.orderBy(args.orderBy ?? [])
    if (where === undefined || order === undefined) return undefined
    let sql = `${where}${order}`
    const { skip, take } = args
    if (take !== undefined) sql += ` LIMIT ${query.param(take, 'int')}`
    else if (skip && this.dialect.everyRow !== undefined) sql += ` LIMIT ${this.dialect.everyRow}`
    if (skip) sql += ` OFFSET ${query.param(skip, 'int')}`
    return sql
  }

  /**
   * The name of the count's column: `total`, unless a field has that name (the client's raw query
   * answers objects keyed by column name).
   */
  private countColumn(): string {
    let name = 'total'
    while (this.model.columns[name]) name = `_${name}`
    return this.dialect.quote(name)
  }

  /** The count of the rows `where` selects, or undefined when it cannot be written here. */
  count(where: Where | undefined): SqlQuery | undefined {
    const query = this.builder()
    const condition = query.where(where)
    if (condition === undefined) return undefined
    return query.statement(`SELECT COUNT(*) AS total FROM ${this.table}${condition}`)
  }

  private builder(position?: ReadArgs['position']): QueryBuilder {
    return new QueryBuilder(this.model, this.dialect, position)
  }

  /** The row whose `field` is `value`, or undefined when `field` is not a column. */
  unique(field: string, value: unknown): SqlQuery | undefined {
    return this.rows({ where: { [field]: value }, take: 1 })
  }
}

/** One statement being written: its parameters in order. */
class QueryBuilder {
  private readonly args: unknown[] = []
  private readonly argTypes: ArgType[] = []

  constructor(
    private readonly model: CompiledModel,
    private readonly dialect: Dialect,
    /** The part of the where past a cursor position, written as one comparison where it can be. */
    private readonly position?: ReadArgs['position']
  ) {}

  statement(sql: string): SqlQuery {
    return { sql, args: this.args, argTypes: this.argTypes }
  }

  /** A parameter holding `value`, as the adapter's `mapArg` reads its type. */
  param(value: unknown, scalarType: string): string {
    this.args.push(argument(value))
    this.argTypes.push({ scalarType, arity: 'scalar' })
    return this.dialect.placeholder(this.args.length)
  }

  /** ` WHERE …` (empty without conditions), or undefined. */
  where(where: Where | undefined): string | undefined {
    if (!where || Object.keys(where).length === 0) return ''
    const condition = this.condition(where)
    return condition === undefined ? undefined : ` WHERE ${condition}`
  }

  /** ` ORDER BY …`, or undefined for an order through a relation. */
  orderBy(orderBy: readonly Where[]): string | undefined {
    const parts: string[] = []
    for (const entry of orderBy) {
      for (const [field, direction] of Object.entries(entry)) {
        const column = this.model.columns[field]
        if (!column || (direction !== 'asc' && direction !== 'desc')) return undefined
        parts.push(`${this.dialect.quote(column[0])} ${direction.toUpperCase()}`)
      }
    }
    return parts.length === 0 ? '' : ` ORDER BY ${parts.join(', ')}`
  }

  /**
   * A where as SQL, read as Prisma reads it: a key whose value is undefined is left out, and a
   * where without conditions (`{}`, alone or inside AND/OR) holds for every row.
   */
  private condition(where: Where): string | undefined {
    const position = this.dialect.rowValues && this.position?.where === where && this.position
    const comparison = position && this.rowComparison(position.at)
    if (comparison) return comparison
    const parts: string[] = []
    for (const [key, value] of Object.entries(where)) {
      if (value === undefined) continue
      const part = key === 'AND' || key === 'OR' ? this.group(key, value) : this.field(key, value)
      if (part === undefined) return undefined
      parts.push(part)
    }
    if (parts.length === 0) return '1=1'
    return parts.length === 1 ? parts[0] : `(${parts.join(' AND ')})`
  }

  private group(key: 'AND' | 'OR', value: unknown): string | undefined {
    const items = (Array.isArray(value) ? value : [value]) as Where[]
    if (items.length === 0) return key === 'AND' ? '1=1' : '1=0'
    const parts: string[] = []
    for (const item of items) {
      const part = this.condition(item)
      if (part === undefined) return undefined
      parts.push(part)
    }
    return `(${parts.join(` ${key} `)})`
  }

  /** `(a, b) < (?, ?)`, or undefined when a key is not a column. */
  private rowComparison({ fields, values, operator }: KeysetPosition): string | undefined {
    const columns = fields.map((field) => this.model.columns[field])
    if (!columns.every((column) => column !== undefined)) return undefined
    const quoted = columns.map((column) => this.dialect.quote(column[0]))
    const params = columns.map((column, index) =>
      this.param(values[index], SCALAR_TYPES[column[1]] ?? 'enum')
    )
    return `(${quoted.join(', ')}) ${COMPARISONS[operator]} (${params.join(', ')})`
  }

  private field(name: string, filter: unknown): string | undefined {
    const column = this.model.columns[name]
    if (!column) return undefined
    const quoted = this.dialect.quote(column[0])
    const type = SCALAR_TYPES[column[1]] ?? 'enum'
    if (filter === null) return `${quoted} IS NULL`
    if (!isOperatorObject(filter)) return `${quoted} = ${this.param(filter, type)}`
    const { mode, ...operators } = filter as Where
    const insensitive = mode === 'insensitive'
    const parts: string[] = []
    for (const [operator, value] of Object.entries(operators)) {
      if (value === undefined) continue
      const part = this.operator(quoted, type, operator, value, insensitive)
      if (part === undefined) return undefined
      parts.push(part)
    }
    if (parts.length === 0) return '1=1'
    return parts.length === 1 ? parts[0] : `(${parts.join(' AND ')})`
  }

  private operator(
    column: string,
    type: string,
    operator: string,
    value: unknown,
    insensitive: boolean
  ): string | undefined {
    const pattern = PATTERNS[operator]
    if (pattern && typeof value === 'string') return this.like(column, pattern, value, insensitive)
    // Prisma writes `equals` with `mode: 'insensitive'` as ILIKE, the value a pattern; other
    // insensitive comparisons are left to Prisma.
    if (insensitive) {
      if (operator !== 'equals' || typeof value !== 'string') return undefined
      return this.like(column, ['', ''], value, true)
    }
    const comparison = COMPARISONS[operator]
    if (comparison && value !== null) return `${column} ${comparison} ${this.param(value, type)}`
    if (operator === 'not') return this.not(column, value)
    if (operator === 'equals')
      return value === null ? `${column} IS NULL` : `${column} = ${this.param(value, type)}`
    if (operator === 'in' && Array.isArray(value)) {
      if (value.length === 0) return '1=0'
      return `${column} IN (${value.map((item) => this.param(item, type)).join(', ')})`
    }
    return undefined
  }

  /**
   * A field's `not`: `IS NOT NULL` of `not: null`, and `NOT LIKE` of one pattern
   * (`not: { startsWith: 'ann_' }`, the rest of the text after a case-insensitive exact match's
   * pattern), as Prisma writes them; undefined for any other.
   */
  private not(column: string, value: unknown): string | undefined {
    if (value === null) return `${column} IS NOT NULL`
    if (!isOperatorObject(value)) return undefined
    const entries = Object.entries(value as Where)
    const [operator, text] = entries[0] ?? []
    const pattern = operator === undefined ? undefined : PATTERNS[operator]
    if (entries.length !== 1 || !pattern || typeof text !== 'string') return undefined
    return this.like(column, pattern, text, false, true)
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

/** An operator object (`{ gte: 3 }`), as opposed to a value (a Date, a Decimal, a list). */
function isOperatorObject(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !(value instanceof Date) &&
    !isDecimal(value) &&
    !ArrayBuffer.isView(value) &&
    !Array.isArray(value)
  )
}

/** A value as the driver adapters' `mapArg` takes it: decimals and big integers as text. */
function argument(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString()
  if (isDecimal(value)) return value.toFixed()
  return value
}

/**
 * The first LIKE pattern of `where` (a `contains`, `startsWith` or `endsWith`) holding an escape,
 * as the text it matches, or undefined: on SQLite, whose LIKE Prisma writes without an escape
 * character, Prisma would read the backslash and what follows it as they are.
 */
export function escapeIn(where: unknown): string | undefined {
  if (typeof where !== 'object' || where === null || where instanceof Date) return undefined
  for (const [key, value] of Object.entries(where)) {
    if (PATTERNS[key] && typeof value === 'string' && value.includes('\\'))
      return value.replace(/\\(.)/g, '$1')
    const inner = escapeIn(value)
    if (inner !== undefined) return inner
  }
  return undefined
}
