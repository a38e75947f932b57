/**
 * @module
 * The property filter (API Platform's `PropertyFilter`, docs/member-shape.md): which fields of its
 * members a client asks for (`properties[]=title`) and which to-one relations it asks embedded
 * (`properties[author][]=name`), as an operation declares them, read from a request strictly: a
 * name the operation does not offer (undeclared, hidden from the caller) is a 400 naming it.
 */

import type { OrderField } from '../contract/order.js'
import type { EmbedSpec, PropertySpec, SelectableProperty } from '../contract/properties.js'
import { badRequest } from '../errors.js'
import type { QueryMap } from '../iri/query-string.js'
import { fieldsShape, type JoinedRelation, type ReadShape } from '../plan/read-shape.js'
import { FILTER_LIMITS } from './spec.js'

export type {
  EmbeddedField,
  EmbedSpec,
  PropertySpec,
  SelectableProperty,
} from '../contract/properties.js'

/** A relation a request embeds, with the fields it asks of it. */
export interface EmbedRequest {
  /** The relation, as the operation offers it. */
  property: SelectableProperty & {
    /** What it embeds. */
    embed: EmbedSpec
  }
  /** The fields asked of the related item. */
  fields: readonly string[]
}

/** What one request selects: the members' properties, and the relations embedded among them. */
export interface PropertySelection {
  /** The properties shown; absent: every one (a resource's declared embeds, without a request's). */
  names?: ReadonlySet<string> | undefined
  /** The relations embedded, by their property name. */
  embeds: ReadonlyMap<string, EmbedRequest>
}

/**
 * Set by the data-access layer on an embedded row the caller may not see (outside its scope of the
 * related model, or of a model its guards refuse): only its key is kept, and it is written as the
 * link's IRI, as it would be without the selection.
 */
export const OUTSIDE_SCOPE: unique symbol = Symbol('prisma-hydra outside scope')

/**
 * Set by the data-access layer on a row (a member, an embedded item) whose fields shown on some
 * rows only (a `shownWhere` rule) were checked: the names of those the row shows the caller, the
 * condition of each holding for it. The writers leave out every such field a row does not name.
 */
export const SHOWN_ON_ROW: unique symbol = Symbol('prisma-hydra shown on this row')

/**
 * Whether `row` shows its field `name` to the caller: any field but those shown on some rows
 * only (`someRows`), and of those the ones its check found it shows (SHOWN_ON_ROW). A row no
 * check marked (a custom data provider's) shows none of them.
 */
export function shownOnRow(
  row: object,
  name: string,
  someRows: ReadonlySet<string> | undefined
): boolean {
  if (!someRows?.has(name)) return true
  return (row as { [SHOWN_ON_ROW]?: ReadonlySet<string> })[SHOWN_ON_ROW]?.has(name) === true
}

/** The Prisma relation field of a selectable property. */
export const relationOf = (property: SelectableProperty): string => property.field ?? property.name

const INTEGER_KEY = /^(?:0|[1-9][0-9]*)$/

const listOf = (names: Iterable<string>): string => [...names].join(', ') || 'none'

/**
 * The selection a request makes, or undefined when it sends no property parameter (every
 * property). Throws a 400 for a malformed or unknown one.
 */
export function readProperties(
  query: QueryMap,
  spec: PropertySpec | undefined
): PropertySelection | undefined {
  if (!spec) return undefined
  const { parameter } = spec
  const given = query.get(parameter)
  if (given === undefined) return undefined
  const usage = `selects properties as ${parameter}[]=name and embeds a relation's as ${parameter}[relation][]=name`
  if (typeof given === 'string') throw badRequest(`The "${parameter}" parameter ${usage}.`)
  const byName = new Map(spec.properties.map((property) => [property.name, property]))
  const names = new Set<string>()
  const embeds = new Map<string, EmbedRequest>()
  let count = 0
  for (const [key, value] of given) {
    count += typeof value === 'string' ? 1 : value.size
    if (count > FILTER_LIMITS.values)
      throw badRequest(
        `The "${parameter}" parameter names more than ${FILTER_LIMITS.values} properties.`
      )
    if (INTEGER_KEY.test(key)) {
      if (typeof value !== 'string') throw badRequest(`The "${parameter}" parameter ${usage}.`)
      if (!byName.has(value))
        throw badRequest(
          `The "${parameter}" parameter is not known: "${value}" is not a property to select. Properties: ${listOf(byName.keys())}.`
        )
      names.add(value)
      continue
    }
    const property = byName.get(key)
    if (!property?.embed)
      throw badRequest(
        `The "${parameter}[${key}]" parameter is not known: "${key}" is not a relation to embed. Relations: ${listOf(spec.properties.filter((entry) => entry.embed).map((entry) => entry.name))}.`
      )
    names.add(key)
    embeds.set(key, {
      property: property as EmbedRequest['property'],
      fields: embeddedFields(`${parameter}[${key}]`, value, property.embed, usage),
    })
  }
  return { names, embeds }
}

/** The fields `properties[author][]=…` asks of an embedded relation (at least one). */
function embeddedFields(
  parameter: string,
  value: string | QueryMap,
  embed: EmbedSpec,
  usage: string
): string[] {
  if (typeof value === 'string' || value.size === 0)
    throw badRequest(`The "${parameter}" parameter ${usage}.`)
  const known = embed.fields.map((field) => field.name)
  const fields: string[] = []
  for (const [key, name] of value) {
    if (!INTEGER_KEY.test(key) || typeof name !== 'string')
      throw badRequest(
        `The "${parameter}" parameter ${usage}: one relation deep, each a field of ${embed.model}.`
      )
    if (!known.includes(name))
      throw badRequest(
        `The "${parameter}" parameter is not known: "${name}" is not a field of ${embed.model} to embed. Fields: ${listOf(known)}.`
      )
    if (!fields.includes(name)) fields.push(name)
  }
  return fields
}

/**
 * The shape of a page reading what the model reads (`model`, its links' keys among them) and the
 * embedded to-one relations' key and asked fields in its own statement (a join, or Prisma's nested
 * `select`): never a query per member. A to-many relation (`embed.first`) is left out: Prisma
 * applies a nested `take` of a `findMany` in memory, after reading every related row, so its first
 * page is read apart, bounded ({@link firstPageArgs}).
 */
export function embeddingShape(model: ReadShape, selection: PropertySelection): ReadShape {
  const joined = new Map(model.joined.map((entry) => [entry.relation, entry.fields]))
  for (const { property, fields: asked } of selection.embeds.values()) {
    if (property.embed.first !== undefined) continue
    const relation = relationOf(property)
    joined.set(relation, unique([...(joined.get(relation) ?? []), ...property.embed.key, ...asked]))
  }
  return {
    fields: model.fields,
    joined: [...joined].map(([relation, fields]): JoinedRelation => ({ relation, fields })),
  }
}

const unique = (names: readonly string[]): string[] => [...new Set(names)]

/**
 * How the first page a to-many relation embeds is read for one member: the target's key and the
 * asked fields, in the target's key order, one row more than it shows (so that its writer knows
 * whether more exist).
 */
export function firstPageArgs(embed: EmbedRequest & { property: { embed: { first: number } } }): {
  shape: ReadShape
  order: OrderField[]
  take: number
} {
  const { key, first } = embed.property.embed
  return {
    shape: fieldsShape(unique([...key, ...embed.fields])),
    order: key.map((field) => ({ field, direction: 'asc' })),
    take: first + 1,
  }
}

/**
 * The spec without what a caller may not see: properties named in `hidden` (links by their Prisma
 * field, as filters name them), and related fields named `relation.field`. What is left out is
 * then an unknown property for that caller, as an undeclared one.
 */
export function callerProperties(spec: PropertySpec, hidden: ReadonlySet<string>): PropertySpec {
  const properties = spec.properties.flatMap((property): SelectableProperty[] => {
    const relation = relationOf(property)
    if (hidden.has(relation)) return []
    const { embed } = property
    if (!embed) return [property]
    const fields = embed.fields.filter((field) => !hidden.has(`${relation}.${field.name}`))
    return [{ ...property, embed: { ...embed, fields } }]
  })
  return { ...spec, properties }
}
