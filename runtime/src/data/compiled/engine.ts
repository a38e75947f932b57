/**
 * @module
 * The `compiled` engine of the data-access layer: the same reads as the `prisma`
 * engine (prisma7/engine.ts), written as SQL (the model's `SELECT`, emitted at generate time, and
 * the request's conditions, order and window, compiled/sql.ts) and run through the client's own
 * driver adapter (prisma7/shared-adapter.ts), its rows made Prisma's values (compiled/row-values.ts). A page that
 * shows fewer properties (`properties[]`) reads only their columns (a shape of the model's own
 * fields alone). A page that embeds to-one relations, or shows a link whose key only the related
 * row holds, reads them joined (compiled/embeds.ts); an item is read by the same statements, one
 * row. A read it cannot write (a relation its compiled form does not hold, a relation it does not
 * join) is the `prisma` engine's, and the request is told (`handoff`). It bypasses the client's extensions (`$extends` query hooks): its reads are
 * not the client's model queries.
 */

import type { CompiledModel, ModelSource } from '../../contract/model-source.js'
import { SHOWN_ON_ROW } from '../../filters/properties.js'
import { allOf, type Condition } from '../../plan/condition.js'
import { modelShape, type ReadShape } from '../../plan/read-shape.js'
import type { FindManyArgs, ModelReads, RowsRead, TransactionOptions } from '../model-reads.js'
import { keyCondition } from '../row-keys.js'
import { type ColumnReads, columnReads } from './columns.js'
import { embeddedReads } from './embeds.js'
import type { SqlQuery } from './query.js'
import { type RelatedQuery, relatedReads } from './related.js'
import type { CompiledStatements } from './sql.js'
import type { SqlRunner } from './sql-runner.js'

/** The count in `column` of a statement's first row: a number, a bigint or text, by driver. */
const countOf = (rows: unknown[][], column = 0): number => Number(rows[0]?.[column] ?? 0)

/** Whether a page's rows are the rows `counted` selects (no position of its own). */
const sameRows = (page: FindManyArgs, counted: Condition | undefined): boolean =>
  page.past === undefined && page.condition === counted

/**
 * The reader of a page's shape: the model's whole when it has none, fewer columns when it names
 * some of the model's own fields alone (a page's shown columns), with joins when it embeds to-one
 * relations the compiled form joins; undefined for any other.
 */
function shapeReads(
  model: ModelSource,
  compiled: CompiledModel,
  whole: ColumnReads,
  typed: boolean
): (shape: ReadShape | undefined) => ColumnReads | undefined {
  return (shape) => {
    if (!shape) return whole
    if (shape.joined.length > 0) return embeddedReads(model, compiled, shape, typed)
    return shape.fields.every((name) => model.select[name] === true)
      ? columnReads(model, compiled, shape.fields, typed)
      : undefined
  }
}

/**
 * A page and its count in one statement (one snapshot, no transaction), or undefined when the
 * transaction is to read them: the statement cannot be written, or the page is empty and the
 * count read after it leaves rows at the page's offset.
 */
async function pageWithCount(
  runner: SqlRunner,
  statements: CompiledStatements,
  reads: ColumnReads,
  args: FindManyArgs,
  counted: Condition | undefined
): Promise<[object[], number] | undefined> {
  const { statements: page, read, width } = marking(reads, args.shown)
  const both = page.pageAndCount(args, counted)
  if (!both) return undefined
  const rows = await runner.rows(both)
  if (rows.length > 0) return [rows.map(read), countOf(rows, width)]
  // An empty page carries no count. A count read now is one moment's: when that moment has no
  // row at the page's offset, its page is empty too, and [[], count] is its answer. Only when
  // the page's rows are the counted ones (a full page has no position of its own).
  const count = sameRows(args, counted) ? statements.count(counted) : undefined
  if (!count) return undefined
  const total = countOf(await runner.rows(count))
  return total <= (args.skip ?? 0) || args.take === 0 ? [[], total] : undefined
}

/**
 * `reads` whose rows carry whether each holds each condition of `shown` (compiled/sql.ts writes
 * them after the model's columns): each row read is marked with the fields it shows
 * (SHOWN_ON_ROW), its values and their verdict read by one statement; the count of a page comes
 * after them.
 */
function marking(
  reads: ColumnReads,
  shown: ReadonlyMap<string, Condition> | undefined
): ColumnReads {
  if (!shown || shown.size === 0 || !reads.statements.marksShown) return reads
  const fields = [...shown.keys()]
  const { read, width } = reads
  return {
    statements: reads.statements,
    width: width + fields.length,
    read: (row) => {
      const shows = new Set<string>()
      // 1 or 0 as each driver answers it: a number, a bigint, text.
      for (const [index, field] of fields.entries())
        if (Number(row[width + index]) === 1) shows.add(field)
      const written = read(row) as Record<PropertyKey, unknown>
      written[SHOWN_ON_ROW] = shows
      return written
    },
  }
}

/**
 * The reads of the model's whole `select`: its own statement when every field is a column, else
 * (a link whose key only the related row holds) the model's columns with each such relation
 * joined; undefined when one is neither.
 */
function wholeReads(
  model: ModelSource,
  compiled: CompiledModel,
  typed: boolean
): ColumnReads | undefined {
  const fields = Object.keys(model.select)
  if (fields.every((field) => model.select[field] === true && compiled.columns[field]))
    return columnReads(model, compiled, fields, typed, compiled.select)
  return embeddedReads(model, compiled, modelShape(model.select), typed)
}

/** The writer of reads of any model of the registry (compiled/related.ts). */
type RelatedWriter = ((read: RowsRead) => RelatedQuery | undefined) | undefined

/** The rows of one read written by `related`, run through `runner`; undefined when not written. */
async function relatedRead(
  runner: SqlRunner,
  related: RelatedWriter,
  read: RowsRead
): Promise<object[] | undefined> {
  const written = related?.(read)
  return written && (await runner.rows(written.query)).map(written.read)
}

/**
 * The rows of each of `reads`, written by `related` and run through `runner` (several in one
 * transaction; one statement is one snapshot by itself); undefined when one of them cannot be
 * written (all are then Prisma's to read).
 */
async function relatedRows(
  runner: SqlRunner,
  related: RelatedWriter,
  reads: readonly RowsRead[],
  options: TransactionOptions
): Promise<object[][] | undefined> {
  const [only] = reads
  if (!only) return []
  if (reads.length === 1) {
    const rows = await relatedRead(runner, related, only)
    return rows && [rows]
  }
  const written: RelatedQuery[] = []
  for (const read of reads) {
    const query = related?.(read)
    if (!query) return undefined
    written.push(query)
  }
  const answers = await runner.snapshot(
    written.map(({ query }) => query),
    options.isolationLevel
  )
  return answers.map((rows, index) => rows.map((written[index] as RelatedQuery).read))
}

/**
 * The reads of `model` through `runner`; `prisma` serves what cannot be compiled. Undefined when
 * the model has no compiled form, or its `select` reads through a relation the form does not join. `inSnapshot` runs a
 * page and what its embeds read after it in one transaction (engines.ts); without it, Prisma's.
 */
export function compiledReads(
  prisma: ModelReads,
  model: ModelSource,
  runner: SqlRunner,
  inSnapshot: ModelReads['inSnapshot'] = prisma.inSnapshot
): ModelReads | undefined {
  const compiled = model.compiled
  const whole = compiled && wholeReads(model, compiled, runner.typed)
  if (!compiled || !whole) return undefined
  const readsOf = shapeReads(model, compiled, whole, runner.typed)
  const rowsOf = async (reads: ColumnReads, query: SqlQuery, shown?: FindManyArgs['shown']) =>
    (await runner.rows(query)).map(marking(reads, shown).read)
  const { statements } = whole
  const related = relatedReads(model, compiled, runner.typed)
  const registryRows = (read: RowsRead) => relatedRead(runner, related, read)
  return {
    findMany(args) {
      const reads = readsOf(args.shape)
      const query = reads?.statements.rows(args)
      if (reads && query) return rowsOf(reads, query, args.shown)
      args.handoff?.(reads ? 'query' : 'embed')
      return prisma.findMany(args)
    },
    async count(counted) {
      const query = statements.count(counted)
      return query ? countOf(await runner.rows(query)) : prisma.count(counted)
    },
    async findManyAndCount(args, counted, options, beside) {
      const reads = readsOf(args.shape)
      if (!reads) {
        args.handoff?.('embed')
        return prisma.findManyAndCount(args, counted, options, beside)
      }
      // The parent on its own first: the page and its count are one statement, no transaction.
      if (beside) beside.found(await this.findUnique(beside))
      const answer = await pageWithCount(runner, statements, reads, args, counted)
      if (answer) return answer
      const page = reads.statements.rows(args)
      const count = statements.count(counted)
      if (!page || !count) {
        args.handoff?.('query')
        return prisma.findManyAndCount(args, counted, options)
      }
      const [rows, total] = await runner.snapshot([page, count], options.isolationLevel)
      return [(rows ?? []).map(marking(reads, args.shown).read), countOf(total ?? [])]
    },
    estimate: () => prisma.estimate(),
    async findManyOf(delegate, condition, shape, handoff) {
      const rows = await registryRows({ delegate, condition, shape })
      if (rows) return rows
      handoff?.('embed')
      return prisma.findManyOf(delegate, condition, shape)
    },
    async findManyEach(reads, options, handoff) {
      const rows = await relatedRows(runner, related, reads, options)
      if (rows) return rows
      handoff?.('embed')
      return prisma.findManyEach(reads, options)
    },
    inSnapshot,
    pagesAfter: true,
    marksShown: true,
    async findUnique(read) {
      // The row keyed `value` within `scope`: the model's by its pages' statements (its embeds
      // joined), another model's (a parent) from the registry; else Prisma's.
      const { delegate, key, value, scope, shape, shown } = read
      const condition = allOf([keyCondition(key, value), scope])
      const own = delegate === model.delegate
      const reads = own ? readsOf(shape) : undefined
      const query = reads?.statements.rows({ condition, take: 1, shown })
      const found = own
        ? reads && query && (await rowsOf(reads, query, shown))
        : shape && condition && (await registryRows({ delegate, condition, shape, take: 1 }))
      if (found) return found[0] ?? null
      read.handoff?.(reads || !shape?.joined.length ? 'query' : 'embed')
      return prisma.findUnique(read)
    },
  }
}
