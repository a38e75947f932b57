/**
 * @module
 * The data-access layer: every read of a generated resource passes through here:
 * the windows of every paging mode, the counts of every totals mode, items, the parents of
 * sub-collections and the batches of unpaged streams. Routes hand it an operation and a request's
 * selection; it answers with a CollectionSource. Which engine reads the rows is known here alone.
 */

import type {
  EngineName,
  ModelColumns,
  ModelKey,
  ModelSource,
  RelationSource,
} from '../contract/model-source.js'
import type { ReadOperation } from '../contract/operations.js'
import type { CountPreference } from '../contract/paging.js'
import type { LinkSpec } from '../contract/resource.js'
import { dialectOf } from '../database/dialects.js'
import type { OutageLog } from '../database/outage.js'
import { type DatabaseTimeouts, transactionOptions } from '../database/timeouts.js'
import type { PropertySelection } from '../filters/properties.js'
import type { PlannedRows } from '../filters/selection.js'
import { loggerOf } from '../observe/logger.js'
import type { OperationsOptions } from '../observe/options.js'
import type { ServerTiming } from '../observe/server-timing.js'
import type { CollectionSource } from '../paging/types.js'
import { both, type Condition, isNever } from '../plan/condition.js'
import { fieldsShape } from '../plan/read-shape.js'
import { backEndName, isBackEnd, type ModelEngines } from './back-end.js'
import type { CallerRequest, CallerView } from './caller-view.js'
import { type HandoffSubject, refuseHandoffs, reportHandoffs } from './compiled/handoffs.js'
import { embeddingOf } from './embedded-scope.js'
import { heldLinkTags } from './held-links.js'
import type { KeyedRead } from './keyed-read.js'
import type { ModelReads } from './model-reads.js'
import { pageSources } from './page-source.js'
import { ParentCheck, type ParentRows } from './parent-check.js'
import { parentCondition } from './parent-condition.js'
import { prisma7BackEnd } from './prisma7/back-end.js'
import type { AdapterFactory } from './prisma7/shared-adapter.js'
import { nestableWhere, type PrismaWhere } from './prisma7/where.js'
import { conditionFields, countReads, orderFields, scopeReads } from './read-models.js'
import type { ReadRun } from './read-routing.js'
import { misfitIn } from './scope-values.js'
import type { CountStore } from './shared-totals.js'
import { exactFields, selectionValueTags } from './value-tags.js'

/** A row as the client answers it. */
type Fields = Record<string, unknown>

/** Options of a resource's data access (the app options that decide its reads). */
export interface DataAccessOptions extends OperationsOptions {
  /**
   * Time budgets of the database work of a request (milliseconds): past `query` (default 10,000),
   * or when the database is unreachable, the answer is a 503 with `Retry-After`. The
   * page-and-count transaction takes its limits from these.
   */
  timeouts?: DatabaseTimeouts | undefined
  /**
   * Clients of PostgreSQL read replicas of the app's database (each a client of the same generated
   * type, over its own adapter): reads go to them, one replica per request in turn, the page and
   * its count in one snapshot there; a failing replica is passed by for `timeouts.replicaRetry`
   * (docs/deployment.md#read-replicas). Left out: every read on the app's client.
   */
  replicas?: readonly object[] | undefined
  /**
   * Where `cached` totals are shared between instances (docs/deployment.md#shared-totals): a
   * `redisCountStore` (`@prisma-hydra/runtime/redis`) over the app's Redis client. Left out, each
   * instance caches its own counts.
   */
  totalsStore?: CountStore | undefined
  /**
   * The engine of the resources and operations whose annotations name none: `prisma` (the
   * default: the client's `findMany`, its extensions applied) or `compiled` (SQL written at generate
   * time, run on the client's driver adapter, bypassing client extensions: docs/performance.md).
   */
  engine?: EngineName | undefined
  /**
   * The client's driver adapter factory wrapped by `shareAdapter` (the same object given to
   * `new PrismaClient({ adapter })`): compiled reads then run on the client's own connection
   * without its query layer. Left out, they run through the client's `$queryRawUnsafe`.
   */
  adapter?: AdapterFactory | undefined
}

/** The reads of one resource. `Row` is the model's row as its `select` reads it. */
export interface DataAccess<Row extends object> {
  /**
   * The caller's view of a request (the routes read it from the access rules) as this resource
   * reads with it: throws when its scope holds a value its column does not take. Every read
   * below takes the view it answers.
   */
  caller(view: CallerView, request: CallerRequest): CallerView
  /**
   * The models a request's scopes reach through relations under the caller's view
   * (data/read-models.ts): cache tags of its answer, walked as the shared totals' counts are.
   */
  reads(request: CallerRequest, view: CallerView, fields?: Set<string>): readonly string[]
  /**
   * Adds to `fields` the tags of the fields a page of `model` selects its rows by (`Book.genre`,
   * `Author.name`): those its conditions (filters, parent) test and its order reads, through
   * relations (data/read-models.ts).
   */
  selectionFields(
    model: string,
    conditions: readonly (Condition | undefined)[],
    order: readonly { field: string }[],
    fields: Set<string>
  ): void
  /**
   * The value tags of a page of `model` whose rows hold every one of `conditions` (`Book:genre=fiction`
   * for `?genre=FICTION`: data/value-tags.ts); undefined when no equality narrows it. Left out (an
   * access of one's own), every page is tagged `Book:any` and purged by every insert and delete.
   */
  selectionValues?(
    model: string,
    conditions: readonly (Condition | undefined)[]
  ): string[] | undefined
  /**
   * The tags of the related rows an answer showing `links` writes them from where the related row
   * holds the foreign key (`ArticleBody:articleId=2` for an article's `body`: data/held-links.ts),
   * for an item's `row`, or a page's rows (none given). Left out (an access of one's own), such
   * answers are not purged by an insert or a delete of the related rows.
   */
  linkedRows?(links: readonly LinkSpec[] | undefined, row?: object | undefined): string[]
  /**
   * The rows of `operation` a request selects (its filters' `where`, its client order) within the
   * caller's scope, and within the rows of one parent when `within` is given (a sub-collection's
   * condition); counted as `count` asks (a client's `Prefer: count=…`), else as the operation
   * counts.
   */
  source(
    operation: ReadOperation,
    selection: PlannedRows,
    view: CallerView,
    within?: ParentRows | undefined,
    timing?: ServerTiming | undefined,
    count?: CountPreference | undefined
  ): CollectionSource<Row>
  /**
   * The `where` a custom data provider reads: the request's filters within the caller's scope, as
   * Prisma's (the provider is typed with the model's `WhereInput`).
   */
  providerWhere(selection: PlannedRows, view: CallerView): PrismaWhere | undefined
  /**
   * The item keyed `id` when the caller may see it, or null (the same 404 as a missing id); with
   * the relations `properties` embeds read by the same query (docs/member-shape.md). `timing` is
   * told what the compiled engine hands to Prisma.
   */
  item(
    id: unknown,
    view: CallerView,
    properties?: PropertySelection | undefined,
    timing?: ServerTiming | undefined
  ): Promise<Row | null>
  /**
   * The rows of a sub-collection of the parent keyed `id`, with the check of that parent the page
   * reads it by (the caller's scope of its model applied); undefined when the caller may see no
   * parent at all (a 404 with no query). `missing` is the 404 of a parent the check does not find.
   */
  within(
    relation: RelationSource,
    id: unknown,
    view: CallerView,
    missing: () => Error
  ): ParentRows | undefined
  /**
   * The model's table and its scalar fields' columns (those its compiled description names), for
   * SQL of one's own about them: the change feed reads how they compare text
   * (data/changes/text-comparison.ts). Left out (an access of one's own), the feed refuses a scope
   * comparing text where the database compares it otherwise than JavaScript.
   */
  columns?: ModelColumns | undefined
  /**
   * The outage log of the database read (its primary's, docs/deployment.md#outage-log): one per
   * client, shared by the resources of the app over it, apart from every other app's.
   */
  outages: OutageLog
  /** The engine an operation's reads are given to (`prisma` or `compiled`), as configured. */
  engineOf(operation?: ReadOperation): EngineName
  /**
   * Logs once, when a route is made, the reads of its operation the `prisma` engine answers
   * although it is configured `compiled` (data/compiled/handoffs.ts); nothing on `prisma`. On a
   * back end without the `prisma` engine, throws instead: the route is not made.
   */
  reportHandoffs(operation: ReadOperation | undefined, subject: HandoffSubject): void
}

/**
 * The data access of one resource over the application's Prisma 7 client (`prisma`, typed by the
 * generated module that calls this) or a back end of another room (data/back-end.ts). Cached
 * counts live as long as the access (one per operation).
 */
export function createDataAccess<Row extends object>(
  prisma: object,
  model: ModelSource,
  options: DataAccessOptions = {}
): DataAccess<Row> {
  const back = isBackEnd(prisma) ? prisma : prisma7BackEnd(prisma, options)
  // The routes take every app option, whatever reads them: a back end names those it cannot honour.
  const providers = 'providers' in options ? options.providers : undefined
  const refused = back.refusedOption?.({ ...options, providers })
  if (refused) throw new TypeError(refused)
  const routing = back.targets(model, options)
  const targets = back.relations()
  const exact = exactFields(model)
  /** A read of one item or parent, on a database of its own (no page goes with it). */
  const lookUp: ModelReads['findUnique'] = (read) =>
    routing.pin()((engines) => engines.engineOf().findUnique(read))
  const transaction = {
    isolationLevel: dialectOf(model.provider).isolationLevel,
    ...transactionOptions(options.timeouts),
  }
  // A back end without the prisma engine reads every operation compiled.
  const compiledOnly = back.handoffs === 'refused'
  const configured = (operation?: ReadOperation): EngineName | undefined =>
    compiledOnly ? 'compiled' : (operation?.engine ?? model.engine ?? options.engine)
  const engineOf = (operation?: ReadOperation): EngineName =>
    configured(operation) === 'compiled' && model.compiled ? 'compiled' : 'prisma'
  return {
    outages: routing.outages,
    columns: {
      table: model.table,
      columns: Object.fromEntries(
        Object.entries(model.compiled?.columns ?? {}).map(([field, [column]]) => [field, column])
      ),
    },
    engineOf,
    reportHandoffs(operation, subject) {
      if (compiledOnly) refuseHandoffs(model, subject, backEndName(back))
      else if (configured(operation) === 'compiled')
        reportHandoffs(model, subject, loggerOf(options.logger))
    },
    caller(view, request) {
      const columns = model.compiled?.columns
      const misfit = view.scope && columns && misfitIn(view.scope, columns)
      if (misfit)
        throw new TypeError(
          `The row scope of ${request.model} (${request.operation}) answered a value its column does not take at ${misfit}: it is refused rather than read`
        )
      return view
    },
    reads: (request, view, fields) => scopeReads(targets, request, view, fields),
    selectionFields(name, conditions, order, fields) {
      for (const condition of conditions) conditionFields(targets, name, condition, fields)
      orderFields(targets, name, order, fields)
    },
    selectionValues: (name, conditions) => selectionValueTags(name, conditions, exact),
    linkedRows: (links, row) => heldLinkTags(model, links, row),
    providerWhere: providerWhereOf(model),
    source: pageSources(model, routing, transaction, {
      ...options,
      countReads: countReads(targets, model.delegate),
    }) as DataAccess<Row>['source'],
    async item(id, view, properties, timing) {
      // No row is visible: no id is looked up (every id answers the same 404).
      if (isNever(view.scope)) return null
      const handoff = timing?.handoff
      const embedding = embeddingOf(model, properties, view, transaction, handoff)
      const keyed = { ...itemRead(model, id, view.scope), handoff }
      if (!embedding) {
        const row = await lookUp(keyed)
        return row && holdsExactly(row, model.key, id) ? (row as Row) : null
      }
      // The item, its embedded relations (nested select) and their scope check on one database.
      const pinned = routing.pin()
      const on: ReadRun<ModelReads> = (read) =>
        pinned((engines: ModelEngines) => read(engines.engineOf()))
      const { key } = model
      const { shape, shown } = embedding
      const row = await on((reads) => reads.findUnique({ ...keyed, shape, shown }))
      if (!row || !holdsExactly(row, key, id)) return null
      const [restricted] = await embedding.restrict([row as Row], on)
      return restricted ?? null
    },
    within(relation, id, view, missing) {
      const { parent } = relation
      const { key } = parent
      const shape = fieldsShape((key.fields ?? [key]).map((field) => field.name))
      const scope = view.scopeOf(parent.name)
      if (isNever(scope)) return undefined
      const check = new ParentCheck(parent.delegate, key, id, scope, shape, {
        holds: (row) => holdsExactly(row, key, id),
        read: async (row) => lookUp(row),
        missing,
      })
      return { condition: parentCondition(relation, id, scope), parent: check }
    },
  }
}

/**
 * A custom provider's `where` of a selection within the caller's scope: one it may nest in its own
 * AND, where Prisma misreads `{ OR: [] }`.
 */
function providerWhereOf(model: ModelSource): DataAccess<object>['providerWhere'] {
  const key = model.key.fields?.[0]?.name ?? model.key.name
  const terms = { jsonNull: model.jsonNull }
  return (selection, view) => nestableWhere(both(view.scope, selection.condition), key, terms)
}

/** The read of `model`'s item keyed `id` within `scope`. */
function itemRead(model: ModelSource, id: unknown, scope: Condition | undefined): KeyedRead {
  return { delegate: model.delegate, key: model.key, value: id, scope }
}

/**
 * One id, one item: a row found by its key is the item asked for only when its key is exactly the
 * key read from the IRI. A column's collation can make a database match more than one spelling
 * (MariaDB's default `utf8mb4_unicode_ci` finds `en` for `EN` and for `en `, a PostgreSQL
 * `citext` or a SQLite `COLLATE NOCASE` column the same); those spellings are 404s on every
 * database, as on a binary column, so each item has one IRI (docs/errors.md). Text stored as text
 * is compared here; other kinds (a Decimal, a date) are canonical once their parsers read them.
 */
function holdsExactly(row: object, key: ModelKey, id: unknown): boolean {
  const found = row as Fields
  const same = (stored: unknown, asked: unknown) =>
    typeof stored !== 'string' || typeof asked !== 'string' || stored === asked
  if (!key.fields) return same(found[key.name], id)
  const asked = id as Fields
  return key.fields.every(({ name }) => same(found[name], asked[name]))
}
