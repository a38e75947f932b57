import type { LinkModel, ResourceModel } from '../config/schema/model.js'

/**
 * The target's to-one relation back to a sub-collection's parent (`publisher` for
 * `/publishers/:id/catalogue`), whose filters and orders the sub-collection leaves out (the
 * runtime's sub-collection-query.ts); none for a many-to-many, where a related item has several.
 */
export function backRelation(
  target: ResourceModel,
  parent: string,
  link: LinkModel
): string | undefined {
  const condition = link.condition
  if (!condition || condition.kind === 'some') return undefined
  if (condition.kind === 'is') return condition.field
  return target.links.find(
    (candidate) =>
      candidate.kind === 'one' && candidate.target === parent && candidate.from === condition.field
  )?.field
}
