/**
 * @module
 * A to-many relation embedded by declaration (`@property(embed: [...], first: 3)`,
 * docs/member-shape.md): the first page of its sub-collection in place of its IRI, capped. The
 * collection's `@id` is the sub-collection's IRI; its members are the related items (`@id`,
 * `@type`, the fields asked), at most `first`, in the target's key order. The page's query
 * reads one row more (filters/properties.ts): when it is there, a `hydra:view` says that more
 * exist. Keys are written with or without the `hydra:` prefix as the resource's.
 */
import type { EmbeddedPage } from '../contract/properties.js'
import type { LinkTarget } from '../contract/resource.js'
import { type EmbedRequest, shownOnRow } from '../filters/properties.js'
import { hydraTerm } from '../terms.js'
import { embeddedView } from './embedded-view.js'
import { relatedIri } from './links.js'

type Row = Record<string, unknown>

/** What an embedded item's fields are written by: each field's name and converter. */
export interface ItemFields {
  fields: readonly { name: string; convert: ((value: unknown) => unknown) | undefined }[]
  model: string
  /** The fields the caller sees on some rows only: shown where a row is marked to show them. */
  someRows?: ReadonlySet<string> | undefined
}

/**
 * Writes one embedded item of `fields` at `iri` from its related row. It carries no context: the
 * link's term scopes its model's context to it (hydra/context.ts).
 */
export function embeddedItem(related: Row, iri: string, { fields, model, someRows }: ItemFields) {
  const item: Row = { '@id': iri, '@type': model }
  for (const { name, convert } of fields) {
    if (!shownOnRow(related, name, someRows)) continue
    const value = related[name]
    item[name] = convert ? convert(value) : value
  }
  return item
}

/**
 * The writer of a to-many relation's embedded collection from the rows Prisma read through it;
 * its IRI when they were not read (a guard refusing the target model: embedded-scope.ts).
 */
export function embeddedCollectionWriter(
  embed: EmbedRequest & { property: { embed: { first: number; page: EmbeddedPage } } },
  target: LinkTarget,
  item: ItemFields,
  hydraPrefix: boolean
) {
  const { first, key, page } = embed.property.embed
  const iriOf = relatedIri(target, key[0] as string)
  const terms = {
    collection: hydraTerm('Collection', hydraPrefix),
    member: hydraTerm('member', hydraPrefix),
    view: hydraTerm('view', hydraPrefix),
  }
  const viewOf = embeddedView(page, first, hydraPrefix)
  return (related: unknown, iri: string, base: string): unknown => {
    if (!Array.isArray(related)) return iri
    const rows = related as Row[]
    const members = rows.slice(0, first).map((row) => embeddedItem(row, iriOf(row, base), item))
    const collection: Row = { '@id': iri, '@type': terms.collection, [terms.member]: members }
    if (rows.length > first) collection[terms.view] = viewOf(iri, rows.length)
    return collection
  }
}
