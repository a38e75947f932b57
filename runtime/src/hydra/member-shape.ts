/**
 * @module
 * Members in the shape a request selects (docs/member-shape.md): only the properties it names,
 * after `@id` and `@type`, in the resource's order; an embedded to-one relation written as the
 * related item (its `@id`, `@type` and the fields asked) in place of its IRI, unless the
 * caller may not see it (data/embedded-scope.ts), when its IRI stays; a to-many relation declared
 * embedded as the first page of its sub-collection (embedded-collection.ts).
 */
import type { LinkSpec } from '../contract/resource.js'
import {
  type EmbedRequest,
  OUTSIDE_SCOPE,
  type PropertySelection,
  relationOf,
} from '../filters/properties.js'
import { embeddedCollectionWriter, embeddedItem, type ItemFields } from './embedded-collection.js'
import { converterFor } from './member-values.js'

type Row = Record<string, unknown>

/** What member shapes read of the resource: its links' targets and its `hydra:` prefix. */
export interface ShapedResource {
  links?: readonly LinkSpec[] | undefined
  hydraPrefix?: boolean | undefined
}

/** Writes the embedded item (or collection) of one relation from its row, or its IRI. */
function embeddedWriter(embed: EmbedRequest, base: string, resource: ShapedResource) {
  const { model, first, page } = embed.property.embed
  const relation = relationOf(embed.property)
  const item: ItemFields = {
    model,
    fields: embed.fields.map((name) => {
      const field = embed.property.embed.fields.find((candidate) => candidate.name === name)
      return { name, convert: field && converterFor(field) }
    }),
  }
  const target = resource.links?.find((link) => link.name === embed.property.name)?.target
  if (first !== undefined && page !== undefined && target) {
    const capped = { ...embed.property.embed, first, page }
    const write = embeddedCollectionWriter(
      { ...embed, property: { ...embed.property, embed: capped } },
      target,
      item,
      resource.hydraPrefix !== false
    )
    return (row: Row, iri: unknown): unknown =>
      typeof iri === 'string' ? write(row[relation], iri, base) : iri
  }
  return (row: Row, iri: unknown): unknown => {
    const related = row[relation] as Row | null | undefined
    // A provider's rows hold what it read: a relation without the fields asked stays an IRI.
    if (typeof iri !== 'string' || !related || OUTSIDE_SCOPE in related) return iri
    if (!item.fields.every(({ name }) => name in related)) return iri
    return embeddedItem(related, iri, item)
  }
}

/**
 * The member writer of a selection: `toMember`'s members with only the properties selected, the
 * embedded relations in place of their IRIs. Undefined selection: `toMember` itself.
 */
export function shapeMembers<R extends object, M>(
  toMember: (row: R) => M,
  selection: PropertySelection | undefined,
  base: string,
  resource: ShapedResource = {}
): (row: R) => M {
  if (!selection) return toMember
  const embeds = new Map(
    [...selection.embeds].map(([name, embed]) => [name, embeddedWriter(embed, base, resource)])
  )
  return (row) => {
    const member = toMember(row) as Row
    const shaped: Row = { '@id': member['@id'], '@type': member['@type'] }
    for (const name of Object.keys(member)) {
      if (selection.names && !selection.names.has(name)) continue
      const embed = embeds.get(name)
      shaped[name] = embed ? embed(row as Row, member[name]) : member[name]
    }
    return shaped as M
  }
}
