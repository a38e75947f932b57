/**
 * @module
 * The collection operations of a generated resource module (`bookOperations`) as it writes them:
 * data only, each operation's name taken from its key and its resource and paging parameter names
 * given once for all of them.
 */
import type { IdKind, Resource } from '../hydra/resource.js'
import { defaultParameterNames } from '../paging/config.js'
import type { PagingConfig, ParameterNames } from '../paging/types.js'
import type { CollectionOperation } from './collection-route.js'

/** An operation as a generated module writes it: without its name, resource and parameter names. */
export type OperationData<M> = Omit<CollectionOperation<M>, 'name' | 'resource' | 'paging'> & {
  paging: Omit<PagingConfig, 'parameters'>
}

/** The operations `defineOperations` returns: each the module's data with its name and resource. */
export type DefinedOperations<M, O> = {
  [Name in keyof O]: O[Name] & {
    name: Name & string
    resource: Resource<M, IdKind>
    paging: PagingConfig
  }
}

/**
 * A resource's collection operations, by name: each gets its key as its `name`, the resource, and
 * the paging parameter names (default: page, pagination, itemsPerPage, partial). The literal types
 * of the data stay (`hydraPrefix: true` types the responses' keys).
 */
export function defineOperations<M, const O extends Record<string, OperationData<M>>>(
  resource: Resource<M, IdKind>,
  operations: O,
  parameters: ParameterNames = defaultParameterNames
): DefinedOperations<M, O> {
  const entries = Object.entries(operations).map(([name, operation]) => [
    name,
    { name, resource, ...operation, paging: { ...operation.paging, parameters } },
  ])
  return Object.fromEntries(entries) as DefinedOperations<M, O>
}
