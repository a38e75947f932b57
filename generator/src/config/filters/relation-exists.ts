/**
 * `exists[relation]=true|false` (docs/filters.md): whether an item has a related item through an
 * optional to-one relation, such as the root categories of a tree (`exists[parent]=false`).
 */
import type { DMMF } from '@prisma/generator-helper'
import type { FilterSpec } from '@prisma-hydra/runtime/defaults'

/**
 * The exists filter of `relation`, or what is wrong with it (a message following the relation's
 * name): the relation must be to-one, optional, and served as a link (it holds its foreign key
 * on this model, and its target is served: `links` maps such keys to their relation).
 */
export function relationExists(
  relation: DMMF.Field,
  links: ReadonlyMap<string, string> | undefined
): FilterSpec | string {
  if (relation.isList)
    return 'is to-many: exists filters take optional to-one relations (filter its sub-collection instead)'
  if (relation.isRequired)
    return 'is required, so it always exists: exists filters take optional relations'
  const keys = relation.relationFromFields ?? []
  const served = keys.length > 0 && keys.every((key) => links?.get(key) === relation.name)
  if (!served)
    return `is not served as a link (its target ${relation.type} is not served, or the relation holds no foreign key on this model): exists filters take relations shown as links`
  return { kind: 'exists', field: relation.name, relation: true, model: relation.type }
}
