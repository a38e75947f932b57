/**
 * Relations served as links (docs/hydra.md#relations): a to-one relation is the related item's
 * IRI (or null), a to-many relation the IRI of a paged sub-collection under the item
 * (`/authors/3/books`).
 */

import type { KeyField } from '../contract/keys.js'
import type { LinkSpec, LinkTarget } from '../contract/resource.js'
import { keySegment, singleSegment } from './item-key.js'

/** The key of a value whose target declares none: its kind read from the value's type. */
function keyOfValue(value: unknown): KeyField {
  const kind =
    typeof value === 'number'
      ? 'Float'
      : typeof value === 'bigint'
        ? 'BigInt'
        : value instanceof Date
          ? 'DateTime'
          : 'String'
  return { name: 'id', kind }
}

type LinkWriter = (row: Record<string, unknown>, itemIri: string, base: string) => string | null

/** Builds the writer of one link's value once, so serving a row is a plain call. */
export function linkWriter(link: LinkSpec): LinkWriter {
  if (link.kind === 'many') {
    const suffix = `/${link.name}`
    return (_row, itemIri) => `${itemIri}${suffix}`
  }
  const path = link.target.collectionPath
  const key = link.target.key
  const from = link.from ?? link.name
  const [relation, field] = typeof from === 'string' ? [from] : from
  const read =
    typeof from === 'string' || field === undefined
      ? (row: Record<string, unknown>) => row[relation]
      : (row: Record<string, unknown>) =>
          (row[relation] as Record<string, unknown> | null | undefined)?.[field]
  if (key?.kind === 'Composite') {
    // The related row's key fields, selected through the relation.
    return (row, _itemIri, base) => {
      const related = read(row) as Record<string, unknown> | null | undefined
      return related ? `${base}${path}/${keySegment(key, related)}` : null
    }
  }
  return (row, _itemIri, base) => {
    const id = read(row)
    if (id === null || id === undefined) return null
    return `${base}${path}/${singleSegment((key as KeyField | undefined) ?? keyOfValue(id), id)}`
  }
}

/** The IRI of an item of `target` from its row, whose key fields (`keyName` for one) it holds. */
export function relatedIri(
  target: LinkTarget,
  keyName: string
): (related: Record<string, unknown>, base: string) => string {
  const path = target.collectionPath
  const { key } = target
  return (related, base) => {
    const segment = key
      ? keySegment(key, related)
      : singleSegment(keyOfValue(related[keyName]), related[keyName])
    return `${base}${path}/${segment}`
  }
}
