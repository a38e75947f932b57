/**
 * @module
 * The condition a sub-collection's rows hold (`/authors/3/books`): tied to their parent and, when
 * the caller sees the parent's model in part, to a parent within the caller's scope. The scope is
 * in the rows' own condition, so a read of the rows decides the parent's visibility itself: where
 * the parent is read on its own before the rows (data/parent-check.ts), a parent that leaves the
 * scope after that read (the 404 check) lists none of its rows.
 */

import type { ModelKey, RelationSource } from '../contract/model-source.js'
import { allOf, type Condition, fieldEquals, throughRelation } from '../plan/condition.js'
import { keyCondition } from './row-keys.js'

/** The rows of the parent keyed `id`, visible under `scope` (undefined: every row). */
export function parentCondition(
  relation: { parent: { key: ModelKey }; condition: RelationSource['condition'] },
  id: unknown,
  scope: Condition | undefined
): Condition {
  const { parent, condition } = relation
  if (condition.kind === 'column') {
    const own = fieldEquals(condition.field, id)
    // Without the relation's name (a RelationSource written by hand) the parent's read alone checks it.
    if (!scope || condition.relation === undefined) return own
    return allOf([own, throughRelation(condition.relation, 'is', scope)]) as Condition
  }
  return throughRelation(
    condition.field,
    condition.kind,
    allOf([keyCondition(parent.key, id), scope])
  )
}
