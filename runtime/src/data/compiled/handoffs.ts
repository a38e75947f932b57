/**
 * @module
 * What an operation configured for the `compiled` engine hands to the `prisma` engine, known when
 * its route is made (docs/annotations.md#the-read-engine): the reads the compiled engine cannot
 * write, from the model's compiled form, the operation's declared embeds, its filters and orders
 * (through a relation the compiled form does not hold), its property filter, and the tie of a
 * sub-collection to its parent. Reported once in the app's log,
 * so that an operation read by Prisma under `compiled` is never silent; each request so read says
 * it in its `Server-Timing` (`handoff`).
 */

import type { CompiledModel, ModelSource, RelationSource } from '../../contract/model-source.js'
import type { DeclaredEmbed, EmbedSpec, SelectableProperty } from '../../contract/properties.js'
import type { FilterSpec, QuerySpec, RelatedField } from '../../contract/query.js'
import { dialectOf } from '../../database/dialects.js'
import { relationOf } from '../../filters/properties.js'
import type { HydraLogger } from '../../observe/logger.js'
import { modelShape } from '../../plan/read-shape.js'

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
  /** Whether it is the resource's item route: what it reads is an item, not a page. */
  item?: true | undefined
}

/**
 * Whether the relations of `path`, followed from the model, are each in its compiled form (to one
 * related row each, with `toOne`): the compiled SQL writes a condition or an order through them.
 */
function compiledPath(model: ModelSource, path: readonly string[], toOne: boolean): boolean {
  const models = model.compiled?.models
  let current = model.compiled?.name === undefined ? undefined : models?.[model.compiled.name]
  for (const name of path) {
    const relation = current?.relations[name]
    if (!relation || (toOne && relation.many)) return false
    current = models?.[relation.model]
  }
  return current !== undefined
}

/** The relations of a path through them (`book.author.name`: book, author). */
const relationsOf = (through: RelatedField): string[] => [
  through.relation,
  ...(through.next ?? []).map((hop) => hop.relation),
]

/**
 * Whether the compiled SQL cannot write a filter: through a relation its compiled form does not
 * hold, or a pattern where LIKE escapes with brackets (SQL Server). A caseless search is ILIKE on
 * PostgreSQL, and the plain LIKE, which ignores case there, on SQLite and MySQL: both written.
 */
function handedOff(model: ModelSource, filter: FilterSpec): boolean {
  const brackets = dialectOf(model.provider).likeEscape === 'brackets'
  if (filter.kind === 'search' && brackets && filter.strategy !== 'exact') return true
  if (filter.through) return !compiledPath(model, relationsOf(filter.through), false)
  if (filter.kind === 'exists' && filter.relation) return !compiledPath(model, [filter.field], true)
  return false
}

/**
 * Whether the compiled engine reads the first pages of a to-many relation a page embeds
 * (compiled/related.ts): its target is in the registry with every field it shows a column, and
 * its tie to the member a foreign key or a relation the registry holds.
 */
function firstPagesRead(compiled: CompiledModel, embed: EmbedSpec): boolean {
  const target = compiled.models?.[embed.model]
  const { condition } = embed
  if (!target || !condition) return false
  const fields = [...embed.key, ...embed.fields.map(({ name }) => name)]
  if (!fields.every((field) => target.columns[field])) return false
  const tie = condition.kind === 'column' ? condition.relation : condition.field
  return tie === undefined || target.relations[tie] !== undefined
}

/**
 * Whether the compiled form joins every relation `select` reads a link's key through, with that
 * key's fields (compiled/engine.ts reads the model's whole `select` so).
 */
function linksJoined(select: ModelSource['select'], compiled: CompiledModel): boolean {
  return modelShape(select).joined.every(({ relation, fields }) => {
    const joined = compiled.joins?.[relation]
    return joined !== undefined && fields.every((field) => joined.columns[field])
  })
}

/**
 * Why reads of `subject` go to the `prisma` engine although it is configured `compiled`: one
 * phrase a cause, `every read`, `every page` or `every item` when no request escapes it, else the parameters
 * that send a request there. Empty when the compiled engine writes every read the route makes
 * (a caller's scope through a relation is only known per request: `Server-Timing` says it).
 */
function compiledHandoffs(model: ModelSource, subject: HandoffSubject): string[] {
  const compiled = model.compiled
  if (!compiled || !linksJoined(model.select, compiled))
    return ['every read: the model shows a related id read through its relation']
  const reasons: string[] = []
  // A to-one relation the compiled form joins is read in the page's statement (compiled/embeds.ts).
  const unjoined = (property: SelectableProperty, embed: EmbedSpec) => {
    const joined = compiled.joins?.[relationOf(property)]
    return !joined || embed.fields.some(({ name }) => !joined.columns[name])
  }
  const unread = (property: SelectableProperty, embed: EmbedSpec) =>
    embed.first === undefined ? unjoined(property, embed) : !firstPagesRead(compiled, embed)
  const declared = subject.embedded ?? []
  const toOne = declared.filter(
    (embed) => embed.embed.first === undefined && unjoined(embed, embed.embed)
  )
  if (toOne.length > 0)
    reasons.push(
      `every ${subject.item ? 'item' : 'page'}: it declares ${toOne.map(relationOf).join(', ')} embedded`
    )
  const toMany = declared.filter(
    (embed) => embed.embed.first !== undefined && !firstPagesRead(compiled, embed.embed)
  )
  if (toMany.length > 0)
    reasons.push(`the first pages of ${toMany.map(relationOf).join(', ')} it declares embedded`)
  const tie = subject.relation?.condition
  if (tie && tie.kind !== 'column' && !compiledPath(model, [tie.field], false))
    reasons.push('every page: its parent is tied through a relation, not a foreign key')
  const query = subject.query
  if (!query) return reasons
  // A field may take several filters (a search and a range): it is named once.
  const filters = new Set(
    query.filters.filter((filter) => handedOff(model, filter)).map(({ field }) => field)
  )
  if (filters.size > 0) reasons.push(`a request filtering by ${[...filters].join(', ')}`)
  const orders = query.order.filter(
    ({ through }) => through && !compiledPath(model, relationsOf(through), true)
  )
  if (orders.length > 0)
    reasons.push(`a request ordering by ${orders.map((field) => field.field).join(', ')}`)
  const embeds = (query.properties?.properties ?? []).filter(
    (property) => property.embed && unread(property, property.embed)
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

/**
 * Refuses to serve `subject` on a back end with no engine but the compiled one (`backEnd` names
 * it) when the compiled engine cannot write one of its reads: the route is not made.
 */
export function refuseHandoffs(model: ModelSource, subject: HandoffSubject, backEnd: string): void {
  const reasons = compiledHandoffs(model, subject)
  if (reasons.length === 0) return
  throw new TypeError(
    `${subject.name} cannot be served on the ${backEnd} back end, whose only engine is the compiled one: it cannot read ${reasons.join('; ')}`
  )
}
