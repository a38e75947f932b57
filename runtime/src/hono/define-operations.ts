/**
 * @module
 * The collection operations of a generated resource module (`bookOperations`) as it writes them:
 * data only, each operation's name taken from its key, its resource and paging parameter names
 * given once for all of them, and what follows from the resource (the collection's path, the
 * order's tie-breaker, the keyset key) left to `defineOperations`.
 */
import type { OrderField } from '../data/model-source.js'
import { withTieBreaker } from '../filters/spec.js'
import { keyFields } from '../hydra/item-key.js'
import type { IdKind, Resource } from '../hydra/resource.js'
import { defaultParameterNames } from '../paging/config.js'
import type { CursorKey, PagingConfig, ParameterNames } from '../paging/types.js'
import type { CollectionOperation } from './collection-route.js'
import { orderKeyOf } from './order-key.js'

/**
 * An operation as a generated module writes it: without its name, resource and parameter names,
 * nor its keyset key; its path only when it is not the resource's collection path, its order as
 * declared (without the key's fields), none when cursor-paged: `defineOperations` completes them.
 */
export type OperationData<M> = Omit<
  CollectionOperation<M>,
  'name' | 'resource' | 'paging' | 'orderKey' | 'path'
> & {
  path?: string | undefined
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
    name: Name & string
    resource: Resource<M, IdKind>
    path: string
    order: readonly OrderField[]
    paging: PagingConfig
    hydraPrefix: O[Name] extends { hydraPrefix: infer Own extends boolean } ? Own : P
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
    const orderKey = operation.paging.cursor ? undefined : orderKeyOf(order, resource)
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
