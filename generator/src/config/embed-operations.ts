/**
 * @module
 * The operations a declared embed is limited to (`@property(embed: [...], operations: [...])`,
 * docs/member-shape.md), checked once every resource is resolved: a name is the model's
 * `collection`, one of its `@operation`s, `item`, or a sub-collection that lists its items, as
 * its parent model and link (`Book.loans`), which only the parent's links tell.
 */
import { didYouMean, type Problem, reporter } from '../problems.js'
import type { ResourceModel } from './schema/model.js'

/** The names `operations` may give on `resource`'s fields, in the order routes are served. */
export function embedOperationNames(
  resource: ResourceModel,
  resources: readonly ResourceModel[]
): string[] {
  const subCollections = resources.flatMap((parent) =>
    parent.links
      .filter((link) => link.kind === 'many' && link.target === resource.name && link.condition)
      .map((link) => `${parent.name}.${link.name}`)
  )
  return [...resource.operations.map((operation) => operation.name), 'item', ...subCollections]
}

/**
 * An unknown operation name of a declared embed, with the closest one; `item` where an
 * `@operation` takes that name too (one name for two routes).
 */
export function checkEmbedOperations(resources: readonly ResourceModel[]): Problem[] {
  const problems: Problem[] = []
  for (const resource of resources) {
    const limited = (resource.embedded ?? []).filter((embed) => embed.operations)
    if (limited.length === 0) continue
    const known = embedOperationNames(resource, resources)
    const itemOperation = resource.operations.some((operation) => operation.name === 'item')
    for (const embed of limited) {
      const report = reporter(
        problems,
        `Model "${resource.name}", field "${embed.field ?? embed.name}"`
      )
      const problem = (message: string) =>
        report({ source: '@property', option: 'operations', message })
      for (const name of embed.operations ?? [])
        if (name === 'item' && itemOperation)
          problem(
            `names "item", which is both ${resource.name}'s items and its @operation(name: "item"): rename the @operation`
          )
        else if (!known.includes(name))
          problem(
            `names no operation "${name}" of ${resource.name}.${didYouMean(name, known)} Operations: ${known.join(', ')}`
          )
    }
  }
  return problems
}
