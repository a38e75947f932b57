/**
 * @module
 * The `compiled` engine's statements of one model: the model's `SELECT` (written at generate time)
 * followed by the `WHERE`, `ORDER BY` and window of one read, each written by a QueryBuilder
 * (compiled/query.ts) from the plan's conditions and order. What it cannot write answers
 * undefined, and the layer reads that request with Prisma instead (docs/performance.md).
 */

import type { CompiledColumn, CompiledModel } from '../../contract/model-source.js'
import type { OrderField } from '../../contract/order.js'
import { type Dialect, dialectOf } from '../../database/dialects.js'
import { allOf, type Condition, onField, walkConditions } from '../../plan/condition.js'
import type { KeysetPast } from '../../plan/keyset-position.js'
import { QueryBuilder, type SqlQuery } from './query.js'

/**
 * The table of the members whose first related rows `eachOf` reads: its name as written in a
 * statement, its columns, and its key field, which the related rows' first order field holds.
 */
export interface MembersTable {
  table: string
  columns: Readonly<Record<string, CompiledColumn>>
  key: string
}

/** What a read asks for, as the plan says it (FindManyArgs). */
export interface ReadArgs {
  condition?: Condition | undefined
  past?: KeysetPast | undefined
  order?: readonly OrderField[] | undefined
  skip?: number | undefined
  take?: number | undefined
  /**
   * Fields shown on some rows only, by field: whether each row holds each condition is read as
   * one more column of the rows, after the model's (`marksShown`), in the map's order.
   */
  shown?: ReadonlyMap<string, Condition> | undefined
}

/** The statements of one model on one database. */
export class CompiledStatements {
  private readonly dialect: Dialect
  /** `model.select` without its ` FROM` of the model's table; undefined when it has none. */
  private readonly columns: string | undefined

  /**
   * `joins`: what follows the model's table in the `FROM` of its rows (the joins of embedded
   * relations, compiled/embeds.ts), whose columns `model.select` lists after the model's own.
   * `keys`: the columns of the model's key, by which a page's rows are joined to its keys read
   * first (`from`); without them, a page is read in one `SELECT`.
   */
  constructor(
    private readonly model: CompiledModel,
    private readonly provider: string,
    private readonly table: string,
    private readonly joins = '',
    private readonly keys: readonly string[] = []
  ) {
    this.dialect = dialectOf(provider)
    const from = ` FROM ${table}`
    this.columns = model.select.endsWith(from) ? model.select.slice(0, -from.length) : undefined
  }

  /**
   * Whether the rows' statements read `shown`'s conditions as columns of their own (a `SELECT`
   * whose columns can be added to); otherwise its rows are checked after them.
   */
  get marksShown(): boolean {
    return this.columns !== undefined
  }

  /** The rows of `args`, or undefined when a part of them cannot be written here. */
  rows(args: ReadArgs): SqlQuery | undefined {
    const query = this.builder()
    const { columns } = this
    if (columns === undefined) {
      const window = this.window(query, args)
      return window === undefined
        ? undefined
        : query.statement(`${this.model.select}${this.joins}${window}`)
    }
    // Parameters in the order of the text: the shown columns', then the window's.
    const shown = this.shownColumns(query, args.shown)
    const from = shown === undefined ? undefined : this.from(query, args)
    return from === undefined ? undefined : query.statement(`${columns}${shown}${from}`)
  }

  /**
   * `, CASE WHEN … THEN 1 ELSE 0 END AS "__s0", …`: whether a row holds each condition of
   * `shown`; empty without any, undefined when one cannot be written here.
   */
  private shownColumns(
    query: QueryBuilder,
    shown: ReadonlyMap<string, Condition> | undefined
  ): string | undefined {
    let written = ''
    let index = 0
    for (const condition of shown?.values() ?? []) {
      const holds = query.holds(condition)
      if (holds === undefined) return undefined
      written += `, ${holds} AS ${this.dialect.quote(`__s${index++}`)}`
    }
    return written
  }

  /**
   * The ` FROM …` of a read's rows, after its columns: the model's table, its joins and the
   * window; or, where the dialect reads keys first (MariaDB, MySQL), for a page whose statement
   * steps over rows it does not answer (an offset, a condition), the keys of the page's rows read
   * first, in the order and window, and the page's rows joined to them: `` FROM (SELECT `id` AS
   * `__k0` FROM `Product` WHERE … ORDER BY … LIMIT ? OFFSET ?) AS `__p` JOIN `Product` ON
   * `Product`.`id` = `__p`.`__k0` … ORDER BY … ``. The keys' read steps over index entries, where
   * InnoDB reading whole rows fetches each row it steps over
   * (docs/performance.md#a-pages-keys-read-first).
   */
  private from(query: QueryBuilder, args: ReadArgs): string | undefined {
    const from = ` FROM ${this.table}`
    const order = args.order ?? []
    const keysFirst =
      this.dialect.keysFirst &&
      this.keys.length > 0 &&
      args.take !== undefined &&
      (args.skip || args.condition !== undefined) &&
      order.every(({ field }) => !field.includes('.'))
    const window = this.window(query, args)
    if (window === undefined) return undefined
    if (!keysFirst) return `${from}${this.joins}${window}`
    const { quote } = this.dialect
    const key = (index: number) => quote(`__k${index}`)
    const page = quote('__p')
    const keys = this.keys.map((column, index) => `${quote(column)} AS ${key(index)}`)
    const on = this.keys.map(
      (column, index) => `${this.table}.${quote(column)} = ${page}.${key(index)}`
    )
    const sorted = query.orderBy(order) ?? ''
    return ` FROM (SELECT ${keys.join(', ')}${from}${window}) AS ${page} JOIN ${this.table} ON ${on.join(' AND ')}${this.joins}${sorted}`
  }

  /**
   * The rows of `args` with the count of the rows `counted` selects as one more column, after the
   * model's (and after `shown`'s columns): `SELECT "id", …, (SELECT COUNT(*) FROM "Book" WHERE …) AS "total" FROM "Book" WHERE …
   * ORDER BY … LIMIT … OFFSET …`. One statement reads one snapshot on every database (PostgreSQL
   * and InnoDB under any isolation level, SQLite's one read), so the page and its count agree
   * without a transaction; the count's subquery depends on no row of the page, and is read once.
   * An empty page holds no count. Undefined when a part cannot be written here.
   */
  pageAndCount(args: ReadArgs, counted: Condition | undefined): SqlQuery | undefined {
    const { columns } = this
    if (columns === undefined) return undefined
    const query = this.builder()
    const shown = this.shownColumns(query, args.shown)
    if (shown === undefined) return undefined
    const condition = query.where(counted, undefined, 'count')
    if (condition === undefined) return undefined
    const count = `(SELECT COUNT(*) FROM ${this.table}${condition}) AS ${this.countColumn()}`
    const from = this.from(query, args)
    if (from === undefined) return undefined
    return query.statement(`${columns}${shown}, ${count}${from}`)
  }

  /**
   * The rows of `args` (its condition and order; no skip or take) whose order's first field holds
   * each of `values`, at most `take` for each: a `SELECT … WHERE … AND "bookId" = ? ORDER BY …
   * LIMIT ?` a value, joined by `UNION ALL`, each a range of an index starting with that field
   * where there is one, so that a value with thousands of rows reads `take` of them (a window
   * function would number them all), ordered by the order's fields again:
   * `SELECT "id", "bookId" FROM (SELECT … LIMIT ?) AS "__0" UNION ALL SELECT "id", "bookId" FROM
   * (…) AS "__1" ORDER BY "bookId" ASC, "id" ASC`. `names` are the columns the model's `select`
   * answers, in its order; the order's fields must be among them. Undefined when a part cannot be
   * written here.
   */
  eachOf(
    args: ReadArgs,
    values: readonly unknown[],
    take: number,
    names: readonly string[],
    members?: MembersTable | undefined
  ): SqlQuery | undefined {
    const order = args.order ?? []
    const [first] = order
    const plain = order.every(({ field }) => names.includes(field) && this.model.columns[field])
    if (!first || !plain || values.length === 0 || this.joins) return undefined
    const query = this.builder()
    const { quote } = this.dialect
    const columns = names.map((name) => quote(name)).join(', ')
    // Each branch holds its own value: a list of values of the field in the condition is left
    // out of it, and only the values the list holds are branches.
    const [condition, listed] = splitList(args.condition, first.field)
    const kept = listed ? values.filter((value) => listed.has(String(value))) : values
    if (members && this.dialect.lateral)
      return this.lateral(query, { ...args, order, condition }, kept, take, names, members)
    const branches: string[] = []
    for (const value of kept) {
      const tie = onField(first.field, { op: 'equals', value })
      const window = this.window(query, { ...args, condition: allOf([condition, tie]), take })
      if (window === undefined) return undefined
      const alias = quote(`__${branches.length}`)
      branches.push(`SELECT ${columns} FROM (${this.model.select}${window}) AS ${alias}`)
    }
    if (branches.length === 0) return undefined
    const sorted = order.map(({ field, direction }) => `${quote(field)} ${direction.toUpperCase()}`)
    return query.statement(`${branches.join(' UNION ALL ')} ORDER BY ${sorted.join(', ')}`)
  }

  /**
   * `eachOf` as one `LATERAL` subquery of the members' table: `SELECT "__v"."id", … FROM "Book" AS
   * "__p" CROSS JOIN LATERAL (SELECT … FROM "Loan" WHERE … AND "bookId" = "__p"."id" ORDER BY …
   * LIMIT $n) AS "__v" WHERE "__p"."id" IN ($1, …) ORDER BY "__v"."bookId", "__v"."id"`: the same
   * rows, each member's a range of the index as a branch reads it, planned once.
   */
  private lateral(
    query: QueryBuilder,
    args: ReadArgs & { order: readonly OrderField[] },
    values: readonly unknown[],
    take: number,
    names: readonly string[],
    members: MembersTable
  ): SqlQuery | undefined {
    const { quote } = this.dialect
    const [first] = args.order
    const own = first && this.model.columns[first.field]
    if (!own || values.length === 0) return undefined
    const member = quote('__p')
    const keys = query.condition(
      onField(members.key, { op: 'in', values }),
      { columns: members.columns, relations: {}, prefix: `${member}.`, row: member },
      false
    )
    const where = query.where(args.condition)
    const orderBy = query.orderBy(args.order)
    const keyColumn = members.columns[members.key]
    if (!keys || where === undefined || orderBy === undefined || !keyColumn) return undefined
    const tie = `${quote(own[0])} = ${member}.${quote(keyColumn[0])}`
    const limit = query.param(take, 'int')
    const inner = `${this.model.select}${where ? `${where} AND ${tie}` : ` WHERE ${tie}`}${orderBy} LIMIT ${limit}`
    const row = quote('__v')
    const columns = names.map((name) => `${row}.${quote(name)}`).join(', ')
    const sorted = args.order.map(
      ({ field, direction }) => `${row}.${quote(field)} ${direction.toUpperCase()}`
    )
    return query.statement(
      `SELECT ${columns} FROM ${members.table} AS ${member} CROSS JOIN LATERAL (${inner}) AS ${row} WHERE ${keys} ORDER BY ${sorted.join(', ')}`
    )
  }

  /** ` WHERE … ORDER BY … LIMIT … OFFSET …` of `args`, or undefined. */
  private window(query: QueryBuilder, args: ReadArgs): string | undefined {
    const where = query.where(args.condition, args.past)
    const order = query.orderBy(args.order ?? [])
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

  /** The count of the rows `counted` selects, or undefined when it cannot be written here. */
  count(counted: Condition | undefined): SqlQuery | undefined {
    const query = this.builder()
    const condition = query.where(counted, undefined, 'count')
    if (condition === undefined) return undefined
    return query.statement(`SELECT COUNT(*) AS total FROM ${this.table}${condition}`)
  }

  private builder(): QueryBuilder {
    return new QueryBuilder(this.model, this.dialect, this.provider, this.table)
  }
}

/**
 * `condition` without the list tests of `field` it holds at its top (`field IN (…)`, alone or as
 * parts of an `and`), and the values (as text) every one of them holds; undefined values when it
 * holds none. `eachOf`'s branches each hold one value instead.
 */
function splitList(
  condition: Condition | undefined,
  field: string
): [Condition | undefined, Set<string> | undefined] {
  const parts = condition?.kind === 'and' ? condition.parts : condition ? [condition] : []
  let listed: Set<string> | undefined
  const rest: Condition[] = []
  for (const part of parts) {
    if (
      part.kind !== 'field' ||
      part.field !== field ||
      part.test.op !== 'in' ||
      part.test.caseless
    )
      rest.push(part)
    else {
      const values = new Set(part.test.values.map(String))
      listed = listed ? new Set([...listed].filter((value) => values.has(value))) : values
    }
  }
  return [allOf(rest), listed]
}

/**
 * The first LIKE pattern of `condition` holding an escape, as the text it matches, or undefined:
 * on SQLite, whose LIKE Prisma writes without an escape character, Prisma would read the backslash
 * and what follows it as they are.
 */
export function escapeIn(condition: Condition | undefined): string | undefined {
  for (const { condition: part } of walkConditions(condition, '', () => undefined)) {
    if (part.kind !== 'field') continue
    const test = part.test.op === 'not' ? part.test.test : part.test
    if (test.op !== 'contains' && test.op !== 'startsWith' && test.op !== 'endsWith') continue
    if (test.pattern.includes('\\')) return test.pattern.replace(/\\(.)/g, '$1')
  }
  return undefined
}
