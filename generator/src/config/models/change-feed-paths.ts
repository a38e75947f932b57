/**
 * Paths a change feed takes (docs/syncing.md#the-feed): `<collection>/changes` is the feed of a
 * model that says `@changes`, so no collection operation may be served there, and no item may be
 * named `changes` by an enum key, whose values are known here. (A `String` key's values are not:
 * the feed's route comes first, docs/syncing.md says so.)
 */
import type { Problem } from '../../problems.js'
import { pathProblem } from '../schema/api-names.js'
import type { ResourceModel } from '../schema/model.js'

/** The segment of a feed's path after its collection's. */
const FEED_SEGMENT = 'changes'

/** The problems of operations served at a feed's path, and of enum keys that name an item there. */
export function feedPathClashes(resources: readonly ResourceModel[]): Problem[] {
  const feeds = new Map(
    resources
      .filter((resource) => resource.changes)
      .map((resource) => [`${resource.collectionPath}/${FEED_SEGMENT}`, resource.name])
  )
  const problems: Problem[] = []
  for (const resource of resources)
    for (const operation of resource.operations) {
      const feed = feeds.get(operation.path)
      if (feed === undefined) continue
      problems.push(
        pathProblem(
          resource.name,
          operation.name,
          `"${operation.path}" is the change feed of ${feed} (@changes): choose another path`
        )
      )
    }
  for (const resource of resources) {
    const [field, ...others] = resource.key.fields
    if (!resource.changes || !field || others.length > 0 || field.kind !== 'enum') continue
    if (!field.enumValues?.includes(FEED_SEGMENT)) continue
    problems.push({
      severity: 'error',
      location: `Model "${resource.name}"`,
      source: '@changes',
      message: `the key field ${field.name} takes the value "${FEED_SEGMENT}" (enum ${field.type}), whose item would be ${resource.collectionPath}/${FEED_SEGMENT}, the change feed's path: rename the value (@map keeps its stored name) or remove @changes`,
    })
  }
  return problems
}
