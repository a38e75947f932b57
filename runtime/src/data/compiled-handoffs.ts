/**
 * @module
 * What an operation configured for the `compiled` engine hands to the `prisma` engine, known when
 * its route is made (docs/annotations.md#the-read-engine): the reads the compiled engine cannot
 * write, from the model's compiled form, the operation's declared embeds, its filters, orders and
 * property filter, and the tie of a sub-collection to its parent. Reported once in the app's log,
 * so that an operation read by Prisma under `compiled` is never silent; each request so read says
 * it in its `Server-Timing` (`handoff`).
 */

import type { ModelSource, RelationSource } from '../contract/model-source.js'
import type { DeclaredEmbed, EmbedSpec, SelectableProperty } from '../contract/properties.js'
import type { FilterSpec, QuerySpec } from '../contract/query.js'
import { dialectOf } from '../database/dialects.js'
import { relationOf } from '../filters/properties.js'
import type { HydraLogger } from '../observe/logger.js'

/** What an operation's route knows of its reads when it is made. */
export interface HandoffSubject {
  /** `GET /books`, as the log names the operation. */
  name: string
  /** Its query spec: filters, orders, the property filter. */
  query?: QuerySpec | undefined
  /** The relations it declares embedded. */
  embedded?: readonly DeclaredEmbed[] | undefined
  /** The sub-collection's tie to its parent. */
  relation?: RelationSource | undefined
}

/** Whether a filter is read through a relation (a condition the compiled SQL does not write). */
function throughRelation(filter: FilterSpec, caseless: boolean): boolean {
  if (filter.through) return true
  if (filter.kind === 'exists') return filter.relation === true
  return filter.kind === 'search' && !caseless && filter.strategy.startsWith('i')
}

/**
 * Why reads of `subject` go to the `prisma` engine although it is configured `compiled`: one
 * phrase a cause, `every read` or `every page` when no request escapes it, else the parameters
 * that send a request there. Empty when the compiled engine writes every read the route makes
 * (a caller's scope through a relation is only known per request: `Server-Timing` says it).
 */
function compiledHandoffs(model: ModelSource, subject: HandoffSubject): string[] {
  if (!model.compiled) return ['every read: the model shows a related id read through its relation']
  const reasons: string[] = []
  const compiled = model.compiled
  // A to-one relation the compiled form joins is read in the page's statement (compiled-embeds.ts).
  const unjoined = (property: SelectableProperty, embed: EmbedSpec) => {
    const joined = compiled.relations?.[relationOf(property)]
    return !joined || embed.fields.some(({ name }) => !joined.columns[name])
  }
  const declared = subject.embedded ?? []
  const toOne = declared.filter(
    (embed) => embed.embed.first === undefined && unjoined(embed, embed.embed)
  )
  if (toOne.length > 0)
    reasons.push(`every page: it declares ${toOne.map(relationOf).join(', ')} embedded`)
  const toMany = declared.filter((embed) => embed.embed.first !== undefined)
  if (toMany.length > 0)
    reasons.push(`the first pages of ${toMany.map(relationOf).join(', ')} it declares embedded`)
  if (subject.relation && subject.relation.condition.kind !== 'column')
    reasons.push('every page: its parent is tied through a relation, not a foreign key')
  const query = subject.query
  if (!query) return reasons
  const caseless = dialectOf(model.provider).caseless === 'mode'
  // A field may take several filters (a search and a range): it is named once.
  const filters = new Set(
    query.filters.filter((filter) => throughRelation(filter, caseless)).map(({ field }) => field)
  )
  if (filters.size > 0) reasons.push(`a request filtering by ${[...filters].join(', ')}`)
  const orders = query.order.filter((field) => field.through)
  if (orders.length > 0)
    reasons.push(`a request ordering by ${orders.map((field) => field.field).join(', ')}`)
  const embeds = (query.properties?.properties ?? []).filter(
    (property) => property.embed && unjoined(property, property.embed)
  )
  if (embeds.length > 0)
    reasons.push(`a request embedding ${embeds.map(relationOf).join(', ')} (properties[])`)
  return reasons
}

/**
 * Logs, once for the route being made, the reads of `subject` the `prisma` engine answers under
 * `compiled` (nothing when there is none).
 */
export function reportHandoffs(
  model: ModelSource,
  subject: HandoffSubject,
  logger: HydraLogger
): void {
  const reasons = compiledHandoffs(model, subject)
  if (reasons.length === 0) return
  logger({
    level: 'warn',
    message: `${subject.name} is configured for the compiled engine; the prisma engine reads ${reasons.join('; ')}`,
    fields: { event: 'engine.handoff', operation: subject.name, reasons },
  })
}
