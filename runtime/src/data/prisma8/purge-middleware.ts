/**
 * @module
 * Purge on write for Prisma 8 (docs/caching.md#purge-on-write-on-prisma-8), what
 * hydraInvalidation (data/prisma7/purge-extension.ts) is for Prisma 7, which Prisma 8's client has
 * no `$extends` for: a runtime middleware turning every write statement of the client into the
 * cache tags of what it changes (data/prisma8/statement-tags.ts), handed to the app's `purge`,
 * and dropping the shared totals reading its models from the app's `totals`, once the write is
 * committed:
 *
 * - a write outside a transaction (the runtime's or a connection's own, which PostgreSQL commits
 *   by itself), when the middleware sees it complete (`afterQuery` for a write with `RETURNING`,
 *   every ORM write's, `afterExecute` for one without);
 * - a write in a transaction (`db.transaction(fn)`, and the one an ORM update or delete opens
 *   for itself), which the middleware sees before its `COMMIT`: held for that transaction, handed
 *   on once its `commit()` resolved, dropped when it rolls back (data/prisma8/transaction-ends.ts,
 *   which `watch(db)` sets up).
 *
 * `purge` and the drop are called after the write answered, never awaited by it, and `settled()`
 * awaits them; failures go to the logger once per episode (data/purge-sender.ts).
 */
import { type HydraLogger, loggerOf } from '../../observe/logger.js'
import { purgeSender } from '../purge-sender.js'
import type { CountStore } from '../shared-totals.js'
import type { RowIris, WriteTags } from '../written-rows.js'
import { type ContractModels, contractModels, isWrite, statementTags } from './statement-tags.js'
import { transactionEnds, type WatchableClient } from './transaction-ends.js'

/** Options of {@link hydraPrisma8Invalidation}, those of Prisma 7's `hydraInvalidation`. */
export interface Prisma8InvalidationOptions {
  /** Purges answers by tags (`httpPurge(...)`, or the app's own call of its CDN's API). */
  purge?: ((tags: readonly string[]) => unknown) | undefined
  /**
   * The store of the app's shared totals (a `redisCountStore`): the counts reading a written
   * model are dropped from it. The store must have `drop`.
   */
  totals?: CountStore | undefined
  /** Where a failed purge or drop, or a write in a transaction not watched, is logged. */
  logger?: HydraLogger | undefined
  /**
   * The served resources (`hydraResources`): an update or delete then purges the rows it
   * returned by their IRIs (`/books/3`). Left out, or for a model none of them serves, it
   * purges every answer showing a row of its model (`Book:rows`).
   */
  resources?: readonly RowIris[] | undefined
}

/**
 * The per-operation context Prisma 8 hands a middleware (orm-framework's
 * `RuntimeMiddlewareContext`), the parts read here.
 */
interface OperationContext {
  /** The client's contract. */
  readonly contract: unknown
  /** Where the statement runs: outside a transaction, on a connection, in a transaction. */
  readonly scope: 'runtime' | 'connection' | 'transaction'
  /** The signal the caller passed the runtime: a watched transaction's own. */
  readonly signal?: AbortSignal
  /** The statement's run, shared by its hooks. */
  readonly planExecutionId: string
}

/** A statement as the middleware sees it (orm-family-sql's `SqlExecutionPlan`): its AST. */
interface Statement {
  /** The statement's syntax tree: its kind, its table, what it returns. */
  readonly ast: unknown
}

/**
 * The middleware (orm-family-sql's `SqlMiddleware`, for `postgres({ middleware: [...] })`): the
 * hooks it implements, with what each reads of its arguments.
 */
export interface PurgeMiddleware {
  /** The middleware's name, as Prisma 8's errors and traces name it. */
  readonly name: string
  /** The family of clients it runs in: SQL. */
  readonly familyId: 'sql'
  /** Keeps the keys of a row a write returned. */
  onRow(row: Record<string, unknown>, plan: Statement, ctx: OperationContext): Promise<void>
  /** After a statement whose rows were read: a write's tags, sent or held for its commit. */
  afterQuery(
    plan: Statement,
    result: { readonly completed: boolean },
    ctx: OperationContext
  ): Promise<void>
  /** After a statement whose rows were not read, as `afterQuery`. */
  afterExecute(
    plan: Statement,
    result: { readonly completed: boolean },
    ctx: OperationContext
  ): Promise<void>
}

/** What {@link hydraPrisma8Invalidation} returns. */
export interface Prisma8Invalidation {
  /** The client's middleware: `postgres({ ..., middleware: [invalidation.middleware] })`. */
  readonly middleware: PurgeMiddleware
  /**
   * Watches the transactions of `db`, the client made with `middleware`, and answers it: a write
   * in a transaction purges once it commits. Without it, such a write purges before its commit,
   * and the first one is logged.
   */
  watch<C extends WatchableClient>(db: C): C
  /**
   * Resolves once every purge and drop started so far has ended, those started meanwhile
   * included (a script awaits it before it exits). Never rejects: a failure is logged.
   */
  settled(): Promise<void>
}

/**
 * Purge on write for a Prisma 8 client: each create, update, upsert and delete of its ORM and SQL
 * builder purges, once committed, the tags of the models it changes and the IRIs of the rows it
 * returned (data/prisma8/statement-tags.ts), and with `totals` drops the shared totals reading
 * those models.
 *
 * @example
 * ```ts
 * const invalidation = hydraPrisma8Invalidation({
 *   purge: httpPurge({ url: 'http://varnish:6081/' }),
 *   resources: hydraResources,
 * })
 * const db = invalidation.watch(
 *   postgres<Contract>({ contractJson, url, middleware: [invalidation.middleware] })
 * )
 * // A script writes through `db`, then waits for its purges before it exits:
 * await invalidation.settled()
 * ```
 */
export function hydraPrisma8Invalidation(options: Prisma8InvalidationOptions): Prisma8Invalidation {
  const { purge, totals } = options
  if (!purge && !totals)
    throw new TypeError(
      'hydraPrisma8Invalidation needs `purge`, `totals` or both: it has nothing to do'
    )
  if (totals && typeof totals.drop !== 'function')
    throw new TypeError(
      'hydraPrisma8Invalidation({ totals }): the store has no `drop`, so its counts cannot be dropped on write'
    )
  const logger = loggerOf(options.logger)
  const sender = purgeSender(purge, totals, logger)
  const ends = transactionEnds(sender.send)
  const resources = new Map((options.resources ?? []).map((resource) => [resource.name, resource]))
  const models = new WeakMap<object, ContractModels>()
  const modelsOf = (contract: unknown) => {
    if (typeof contract !== 'object' || contract === null) return contractModels(contract)
    const known = models.get(contract)
    if (known) return known
    const read = contractModels(contract)
    models.set(contract, read)
    return read
  }
  // The rows each write statement returned, by execution, until the statement completes. A caller
  // that stops reading a statement's rows (`break` in a `for await` over `runtime.query(...)`)
  // ends it without `afterQuery`: its rows stay here and it purges nothing. The ORM reads them all.
  const returned = new Map<string, Record<string, unknown>[]>()
  let unwatchedLogged = false

  const wrote = (ctx: OperationContext, written: WriteTags | undefined) => {
    if (!written) return
    if (ctx.scope !== 'transaction') {
      sender.send(written)
      return
    }
    if (ends.hold(ctx.signal, written)) return
    // A transaction of a client not watched: its end is unknown, and a purge before its commit
    // beats none.
    if (!unwatchedLogged) {
      unwatchedLogged = true
      logger({
        level: 'error',
        message:
          'a write in a transaction of a client hydraPrisma8Invalidation does not watch was purged before its commit: pass the client to watch()',
        fields: { event: 'purge.unwatched' },
      })
    }
    sender.send(written)
  }

  const middleware: PurgeMiddleware = {
    name: 'prisma-hydra invalidation',
    familyId: 'sql',
    async onRow(row, plan, ctx) {
      if (!isWrite(plan.ast)) return
      const rows = returned.get(ctx.planExecutionId)
      if (rows) rows.push(row)
      else returned.set(ctx.planExecutionId, [row])
    },
    async afterQuery(plan, { completed }, ctx) {
      const { ast } = plan
      if (!isWrite(ast)) return
      const rows = returned.get(ctx.planExecutionId) ?? []
      returned.delete(ctx.planExecutionId)
      // A statement that failed before its rows wrote nothing; one that failed after some (a later
      // hook, the stream) wrote rows not all seen, which the rows tag covers.
      if (!completed && rows.length === 0) return
      wrote(
        ctx,
        statementTags(modelsOf(ctx.contract), resources, ast, completed ? rows : undefined)
      )
    },
    async afterExecute(plan, { completed }, ctx) {
      const { ast } = plan
      if (!isWrite(ast) || !completed) return
      wrote(ctx, statementTags(modelsOf(ctx.contract), resources, ast, undefined))
    },
  }

  return { middleware, watch: ends.watch, settled: sender.settled }
}
