/**
 * @module
 * Purge on write (docs/caching.md#purge-on-write): a Prisma client extension turning every write
 * of the app's client into the cache tags of what it changes (data/written-rows.ts: the tags of
 * the models it changes, the IRIs of its rows), the tags cached answers carry
 * (hono/response/cache-tags.ts), handed to the app's `purge`, and dropping the shared totals that
 * read those models from the app's `totals` store (data/shared-totals.ts), once the write is
 * committed:
 *
 * - a write outside a transaction, or in a batch (`$transaction([...])`), when it resolves: Prisma
 *   answers a batch's writes once the batch committed;
 * - a write inside an interactive transaction (`$transaction(async (tx) => ...)`), when the
 *   transaction resolves, and never when it rolls back.
 *
 * `purge` and the drop are called after the write answered, never awaited by it, and `settled()`
 * awaits them (data/purge-sender.ts); what they throw or reject goes to the logger, once per
 * episode of failures. The transaction's writes are recognised by the asynchronous
 * context of its callback (AsyncLocalStorage, which Node, Bun, Deno and workerd with
 * `nodejs_compat` have).
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { type HydraLogger, loggerOf } from '../../observe/logger.js'
import { purgeSender } from '../purge-sender.js'
import type { CountStore } from '../shared-totals.js'
import { modelFields, relationTargets, WRITE_OPERATIONS } from '../written-models.js'
import { type RowIris, type WriteTags, writeTags } from '../written-rows.js'

/** Purges the answers tagged with any of `tags` from the app's shared caches. */
export type PurgeTags = (tags: readonly string[]) => unknown

/** Options of {@link hydraInvalidation}: `purge`, `totals` or both. */
export interface InvalidationOptions {
  /** Purges answers by tags (`httpPurge(...)`, or the app's own call of its CDN's API). */
  purge?: PurgeTags | undefined
  /**
   * The store of the app's shared totals (the `totalsStore` given to `createHydraApp`, a
   * `redisCountStore`): the counts reading a written model are dropped from it, so that the next
   * request of any instance counts again. The store must have `drop`.
   */
  totals?: CountStore | undefined
  /** Where a failed purge or drop is logged (default: the console). */
  logger?: HydraLogger | undefined
  /**
   * The served resources (the generated `hydraResources`): a write then purges the rows it
   * changed by their IRIs (`/books/3`), and the items of other rows stay cached. Left out, or for
   * a model none of them serves, a write purges every answer showing a row of its model
   * (docs/caching.md#what-a-write-purges).
   */
  resources?: readonly RowIris[] | undefined
}

/**
 * The extension `hydraInvalidation` returns: `prisma.$extends(invalidation)` (or
 * `invalidation(prisma)`, the extended client typed as the client itself), and `settled()`.
 */
export interface HydraInvalidation {
  /** The client extended: its writes purge (`client.$extends(invalidation)` calls it). */
  <C extends object>(client: C): C
  /**
   * Resolves once every purge and drop started so far by the writes of the clients it extended
   * has ended, those started meanwhile included: what a script or a queue consumer awaits before
   * it exits (a write's purge leaves after its answer). Never rejects: a failure is logged.
   */
  settled(): Promise<void>
}

/**
 * A Prisma client of type `C` as the extension reads it: `$extends`, answering a client of the
 * same type (what the extension adds is not seen in its type), and `$transaction`.
 */
type Extensible<C> = C & {
  $extends(extension: ClientExtension): Extensible<C>
  $transaction(arg: unknown, options?: unknown): Promise<unknown>
}

/** The extension's parts as Prisma's `$extends` takes them: a query and a client component. */
interface ClientExtension {
  name: string
  query?: { $allModels: { $allOperations(call: OperationCall): Promise<unknown> } }
  client?: { $transaction(arg: unknown, options?: unknown): Promise<unknown> }
}

/** The arguments Prisma hands an `$allOperations` query extension. */
interface OperationCall {
  model?: string
  operation: string
  args: unknown
  query(args: unknown): Promise<unknown>
}

/** Whether `client` is a Prisma client: it has `$extends` and `$transaction`. */
function isExtensible<C extends object>(client: C): client is Extensible<C> {
  const { $extends, $transaction } = client as { $extends?: unknown; $transaction?: unknown }
  return typeof $extends === 'function' && typeof $transaction === 'function'
}

/**
 * A Prisma client extension purging the cached answers a write changes:
 * `prisma.$extends(hydraInvalidation({ purge: httpPurge({ url }), resources: hydraResources }))`.
 * Every create, update, upsert and delete of a model (the `Many` forms, nested writes and cascades
 * included) purges, after commit, the tags of the models it changes and the IRIs of the rows it
 * changed (data/written-rows.ts), and with `totals` drops the shared totals that read those models.
 * `settled()` awaits the purges and drops started so far.
 *
 * @example
 * ```ts
 * import { httpPurge, hydraInvalidation } from '@prisma-hydra/runtime/invalidation'
 * import { hydraResources } from './generated/hydra/index.js'
 *
 * const invalidation = hydraInvalidation({
 *   purge: httpPurge({ url: 'http://varnish:6081/' }),
 *   resources: hydraResources,
 * })
 * const purging = prisma.$extends(invalidation)
 * // A script writes through `purging`, then waits for its purges before it exits:
 * await invalidation.settled()
 * ```
 */
export function hydraInvalidation(options: InvalidationOptions): HydraInvalidation {
  const { purge, totals } = options
  if (!purge && !totals)
    throw new TypeError('hydraInvalidation needs `purge`, `totals` or both: it has nothing to do')
  if (totals && typeof totals.drop !== 'function')
    throw new TypeError(
      'hydraInvalidation({ totals }): the store has no `drop`, so its counts cannot be dropped on write'
    )
  const pending = new AsyncLocalStorage<WriteTags>()
  const sender = purgeSender(purge, totals, loggerOf(options.logger))
  const send = sender.send
  const resources = new Map((options.resources ?? []).map((resource) => [resource.name, resource]))
  const extend = <C extends object>(client: C): C => {
    if (!isExtensible(client))
      throw new TypeError('hydraInvalidation extends a Prisma client: this value has no $extends')
    const targets = relationTargets(client)
    const fields = modelFields(client, resources)
    const queried = client.$extends({
      name: 'prisma-hydra invalidation',
      query: {
        $allModels: {
          async $allOperations({ model, operation, args, query }: OperationCall) {
            const result = await query(args)
            if (model === undefined || !WRITE_OPERATIONS.has(operation)) return result
            const call = { model, operation, args, result }
            const written = writeTags(targets, resources, call, fields.get(model))
            const transaction = pending.getStore()
            if (!transaction) send(written)
            else {
              for (const tag of written.tags) transaction.tags.add(tag)
              for (const name of written.models) transaction.models.add(name)
            }
            return result
          },
        },
      },
    })
    return queried.$extends({
      name: 'prisma-hydra invalidation transactions',
      client: {
        // An interactive transaction's writes are purged once it commits; a rollback purges none.
        async $transaction(arg: unknown, transactionOptions?: unknown) {
          if (typeof arg !== 'function') return queried.$transaction(arg, transactionOptions)
          const written: WriteTags = { tags: new Set(), models: new Set() }
          const result = await pending.run(written, () =>
            queried.$transaction(arg, transactionOptions)
          )
          send(written)
          return result
        },
      },
    })
  }
  return Object.assign(extend, { settled: sender.settled })
}
