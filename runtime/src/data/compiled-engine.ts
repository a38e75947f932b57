/**
 * @module
 * The `compiled` engine of the data-access layer (DESIGN 16): the same reads as the `prisma`
 * engine (prisma-engine.ts), written as SQL (the model's `SELECT`, emitted at generate time, and
 * the request's conditions, order and window, compiled-sql.ts) and run through the client's own
 * driver adapter (shared-adapter.ts), its rows made Prisma's values (row-values.ts). A read it
 * cannot write (a condition or order through a relation, a `select` through a relation) is the
 * `prisma` engine's. It bypasses the client's extensions (`$extends` query hooks): its reads are
 * not the client's model queries.
 */
import { qualifiedTable } from '../database/dialects.js'
import { CompiledStatements, type SqlQuery } from './compiled-sql.js'
import type { CompiledModel, ModelSource } from './model-source.js'
import type { PrismaModelReads } from './prisma-engine.js'
import { rowReader } from './row-values.js'
import type { SqlRunner } from './shared-adapter.js'

/** The count a count statement returned: a number, a bigint or text, by driver. */
const countOf = (rows: unknown[][]): number => Number(rows[0]?.[0] ?? 0)

/**
 * The reads of `model` through `runner`; `prisma` serves what cannot be compiled. Undefined when
 * the model has no compiled form (its `select` reads through a relation).
 */
export function compiledReads(
  prisma: PrismaModelReads,
  model: ModelSource,
  runner: SqlRunner
): PrismaModelReads | undefined {
  const compiled = model.compiled
  if (!compiled) return undefined
  const fields = Object.keys(model.select)
  if (!fields.every((field) => model.select[field] === true && compiled.columns[field]))
    return undefined
  const statements = new CompiledStatements(
    compiled as CompiledModel,
    model.provider,
    qualifiedTable(model.provider, model.table)
  )
  const types = fields.map((field) => (compiled.columns[field] as readonly [string, string])[1])
  const read = rowReader(fields, types, runner.typed)
  const rowsOf = async (query: SqlQuery) => (await runner.rows(query)).map(read)
  return {
    findMany(args) {
      const query = statements.rows(args)
      return query ? rowsOf(query) : prisma.findMany(args)
    },
    async count(where) {
      const query = statements.count(where)
      return query ? countOf(await runner.rows(query)) : prisma.count(where)
    },
    async findManyAndCount(args, where, options) {
      const page = statements.rows(args)
      const count = statements.count(where)
      if (!page || !count) return prisma.findManyAndCount(args, where, options)
      const [rows, total] = await runner.snapshot([page, count], options.isolationLevel)
      return [(rows ?? []).map(read), countOf(total ?? [])]
    },
    estimate: () => prisma.estimate(),
    async findUnique(delegate, field, value, scope, select) {
      // A caller's scope is a Prisma where of any shape: Prisma reads the scoped lookups.
      const query =
        delegate === model.delegate && !select && !scope
          ? statements.unique(field, value)
          : undefined
      if (!query) return prisma.findUnique(delegate, field, value, scope, select)
      const [row] = await rowsOf(query)
      return row ?? null
    },
  }
}
