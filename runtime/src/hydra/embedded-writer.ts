/**
 * @module
 * The value of one relation a member embeds (docs/member-shape.md), written from the member's
 * row and the relation's IRI: a to-one relation's related item (its `@id`, `@type` and the fields
 * asked) in place of its IRI, unless the caller may not see it (data/embedded-scope.ts), when its
 * IRI stays; a to-many relation declared embedded as the first page of its sub-collection
 * (embedded-collection.ts).
 */
import type { LinkSpec } from '../contract/resource.js'
import { type EmbedRequest, OUTSIDE_SCOPE, relationOf } from '../filters/properties.js'
import { embeddedCollectionWriter, embeddedItem, type ItemFields } from './embedded-collection.js'
import { converterFor } from './member-values.js'

type Row = Record<string, unknown>

/** Writes the embedded item (or collection) of one relation from the member's row, or its IRI. */
export type EmbedWrite = (row: Row, iri: unknown) => unknown

/**
 * The writer of `embed` on members under `base`: `links` are the resource's (a capped to-many
 * relation's target), `hydraPrefix` whether an embedded collection's keys carry `hydra:`,
 * `someRows` the related model's fields the caller sees on some rows only.
 */
export function embeddedWriter(
  embed: EmbedRequest,
  base: string,
  links: readonly LinkSpec[] | undefined,
  hydraPrefix: boolean,
  someRows?: ReadonlySet<string> | undefined
): EmbedWrite {
  const { model, first, page } = embed.property.embed
  const relation = relationOf(embed.property)
  const item: ItemFields = {
    model,
    someRows,
    fields: embed.fields.map((name) => {
      const field = embed.property.embed.fields.find((candidate) => candidate.name === name)
      return { name, convert: field && converterFor(field) }
    }),
  }
  const target = links?.find((link) => link.name === embed.property.name)?.target
  if (first !== undefined && page !== undefined && target) {
    const capped = { ...embed.property.embed, first, page }
    const write = embeddedCollectionWriter(
      { ...embed, property: { ...embed.property, embed: capped } },
      target,
      item,
      hydraPrefix
    )
    return (row, iri) => (typeof iri === 'string' ? write(row[relation], iri, base) : iri)
  }
  return (row, iri) => {
    const related = row[relation] as Row | null | undefined
    // A provider's rows hold what it read: a relation without the fields asked stays an IRI.
    if (typeof iri !== 'string' || !related || OUTSIDE_SCOPE in related) return iri
    if (!item.fields.every(({ name }) => name in related)) return iri
    return embeddedItem(related, iri, item)
  }
}
