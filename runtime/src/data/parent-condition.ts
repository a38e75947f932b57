/**
 * @module
 * The condition a sub-collection's rows hold (`/authors/3/books`): tied to their parent and, when
 * the caller sees the parent's model in part, to a parent within the caller's scope. The scope is
 * in the page's own `where`, so the page and its count decide the parent's visibility in the same
 * read: a parent that leaves the scope after its own read (the 404 check) lists none of its rows.
 */

import type { ModelKey, RelationSource } from '../contract/model-source.js'
import { andWhere } from '../filters/settled-where.js'

type Where = Record<string, unknown>

/** The `where` of the rows of the parent keyed `id`, visible under `scope` (undefined: every row). */
export function parentWhere(
  relation: { parent: { key: ModelKey }; condition: RelationSource['condition'] },
  id: unknown,
  scope: Where | undefined
): Where {
  const { parent, condition } = relation
  if (condition.kind === 'column') {
    const own = { [condition.field]: id }
    // Without the relation's name (a RelationSource written by hand) the parent's read alone checks it.
    if (!scope || condition.relation === undefined) return own
    return { AND: [own, { [condition.relation]: { is: scope } }] }
  }
  // A composite key's value is an object of exactly its fields: a condition on the parent.
  const onParent = parent.key.fields ? (id as Where) : { [parent.key.name]: id }
  return { [condition.field]: { [condition.kind]: andWhere(onParent, scope) } }
}
