/**
 * @module
 * The collection operations of a generated resource module (`bookOperations`) as it writes them:
 * data only, each operation's name taken from its key, its resource and paging parameter names
 * given once for all of them, and what follows from the resource (the collection's path, the
 * order's tie-breaker, the keyset key) left to `defineOperations`.
 */

import type { IdKind } from './keys.js'
import { keyFields } from './keys.js'
import type { EngineName } from './model-source.js'
import type { CursorKey, OrderField } from './order.js'
import { withTieBreaker } from './order.js'
import { orderKeyOf, resourceFields } from './order-key.js'
import type { PagingConfig, ParameterNames, TotalsSetting } from './paging.js'
import { defaultParameterNames } from './paging.js'
import type { QuerySpec } from './query.js'
import type { Resource } from './resource.js'

/** A collection operation: a path of a resource with its own order and paging settings. */
export interface CollectionOperation<M, P extends boolean = boolean> {
  /** The operation's name (`collection`, `recent`): the access rules of one operation name it. */
  name?: string | undefined
  /** The resource it serves. */
  resource: Resource<M, IdKind>
  /** Its path (`/books`, `/books/recent`). */
  path: string
  /** Its paging settings. */
  paging: PagingConfig
  /** Whether Hydra keys carry the `hydra:` prefix (`hydra:member`) or not (`member`). Default true. */
  hydraPrefix?: P | undefined
  /**
   * The operation's order as a keyset key (unique together), when every field of it can be
   * compared: unpaged responses then read each batch past the last row read. Cursor-paged
   * operations use their cursor key.
   */
  orderKey?: readonly CursorKey[]
  /** What clients may filter and order by (docs/filters.md); absent: nothing. */
  query?: QuerySpec | undefined
  /**
   * The operation's own order (the key last), when the client asks for none. Absent: the rows
   * come as the source gives them.
   */
  order?: readonly OrderField[] | undefined
  /** How full paging counts (the `totals` option); the documentation declares a term when not exact. */
  totals?: TotalsSetting | undefined
  /**
   * The `Cache-Control` of its responses (the `cacheHeaders` annotation, docs/annotations.md);
   * none when left out.
   */
  cacheControl?: string | undefined
  /** The data-access engine of the operation (the `engine` option); absent: the resource's. */
  engine?: EngineName | undefined
}

/**
 * What the data-access layer reads of an operation: its path (it names the operation's shared
 * counts), its order, how it counts and its engine.
 */
export type ReadOperation = Partial<
  Pick<CollectionOperation<unknown>, 'path' | 'order' | 'totals' | 'engine'>
>

/**
 * An operation as a generated module writes it: without its name, resource and parameter names,
 * nor its keyset key; its path only when it is not the resource's collection path, its order as
 * declared (without the key's fields), none when cursor-paged: `defineOperations` completes them.
 */
export type OperationData<M> = Omit<
  CollectionOperation<M>,
  'name' | 'resource' | 'paging' | 'orderKey' | 'path'
> & {
  /** Its path, when not the resource's collection path. */
  path?: string | undefined
  /** Its paging settings, without the parameter names the module gives once. */
  paging: Omit<PagingConfig, 'parameters'>
}

/** What every operation of a module shares unless it says otherwise. */
export interface OperationDefaults<P extends boolean> {
  /** Whether Hydra keys carry the `hydra:` prefix (the resource's setting). */
  hydraPrefix: P
  /** The paging parameter names; default: page, pagination, itemsPerPage, partial. */
  parameters?: ParameterNames | undefined
}

/**
 * The operations `defineOperations` returns: each the module's data with its name, resource,
 * path, full order, parameter names, `hydraPrefix` (its own, else the module's `P`) and its
 * order's keyset key.
 */
export type DefinedOperations<M, O, P extends boolean> = {
  [Name in keyof O]: Omit<O[Name], 'hydraPrefix' | 'path' | 'order'> & {
    /** The operation's name: its key. */
    name: Name & string
    /** The resource it serves. */
    resource: Resource<M, IdKind>
    /** Its path: its own, else the resource's collection path. */
    path: string
    /** Its full order: the declared one ending with the key, or its cursor's fields. */
    order: readonly OrderField[]
    /** Its paging settings, with the module's parameter names. */
    paging: PagingConfig
    /** Whether Hydra keys carry the `hydra:` prefix: its own setting, else the module's. */
    hydraPrefix: O[Name] extends {
      /** The operation's own setting. */
      hydraPrefix: infer Own extends boolean
    }
      ? Own
      : P
    /** Its order as a keyset key, when every field of it can be compared. */
    orderKey?: readonly CursorKey[]
  }
}

/**
 * The full order of an operation: a cursor's fields in its key's order, or the declared order
 * ending with the resource's key (`withTieBreaker`, as a client's order does).
 */
function fullOrder(operation: OperationData<unknown>, resource: Resource<unknown, IdKind>) {
  const { cursor } = operation.paging
  if (cursor) return cursor.map(({ field, direction }) => ({ field, direction }))
  const key = keyFields(resource.id).map((field) => field.name)
  return withTieBreaker(operation.order ?? [], key)
}

/**
 * The name an operation is known by (access rules, spans, declared embeds): its own, or
 * `collection` for one defined without a name (a custom collection's).
 */
export function operationName(operation: { name?: string | undefined }): string {
  return operation.name ?? 'collection'
}

/**
 * A resource's collection operations, by name: each gets its key as its `name`, the resource, the
 * resource's collection path unless it has its own, its full order, the paging parameter names,
 * the module's `hydraPrefix` unless it states its own, and, offset-paged, its order as a keyset
 * key when it can be one (`orderKeyOf`, from the order and the resource alone). The literal types
 * of the data stay (`hydraPrefix: true` types the responses' keys).
 */
export function defineOperations<
  M,
  const O extends Record<string, OperationData<M>>,
  const P extends boolean,
>(
  resource: Resource<M, IdKind>,
  operations: O,
  defaults: OperationDefaults<P>
): DefinedOperations<M, O, P> {
  const parameters = defaults.parameters ?? defaultParameterNames
  const entries = Object.entries(operations).map(([name, operation]) => {
    const order = fullOrder(operation, resource)
    const orderKey = operation.paging.cursor
      ? undefined
      : orderKeyOf(order, resourceFields(resource))
    return [
      name,
      {
        name,
        resource,
        hydraPrefix: defaults.hydraPrefix,
        ...operation,
        path: operation.path ?? resource.collectionPath,
        order,
        ...(orderKey ? { orderKey } : {}),
        paging: { ...operation.paging, parameters },
      },
    ]
  })
  return Object.fromEntries(entries) as DefinedOperations<M, O, P>
}
