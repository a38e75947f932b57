/**
 * @module
 * A sub-collection's operation: its target's collection operation without the filters and orders
 * on the relation that defines it (filters/without-relation.ts), made once per relation.
 */

import type { CollectionOperation } from '../../contract/operations.js'
import { withoutRelation as specWithout } from '../../filters/without-relation.js'

/** Derived operations, made once per operation and relation. */
const derived = new WeakMap<object, Map<string, object>>()

/** `operation` without its filters and orders on `relation` (the back relation to the parent). */
export function withoutRelation<M, P extends boolean>(
  operation: CollectionOperation<M, P>,
  relation: string
): CollectionOperation<M, P> {
  const query = operation.query
  if (!query) return operation
  const byRelation = derived.get(operation) ?? new Map<string, object>()
  derived.set(operation, byRelation)
  const known = byRelation.get(relation)
  if (known) return known as CollectionOperation<M, P>
  const scoped: CollectionOperation<M, P> = { ...operation, query: specWithout(query, relation) }
  byRelation.set(relation, scoped)
  return scoped
}
