/**
 * Relations served as links (docs/hydra.md#relations): a to-one relation is the related item's
 * IRI (or null), a to-many relation the IRI of a paged sub-collection under the item
 * (`/authors/3/books`).
 */
import { type KeyField, type KeySpec, keySegment, singleSegment } from './item-key.js'

/** The type a link leads to: its name, its class IRI when it declares one, where its items live. */
export interface LinkTarget {
  name: string
  iri?: string | undefined
  collectionPath: string
  /** The target's key, which its item IRIs are written from; default: read from the value's type. */
  key?: KeySpec | undefined
}

/** A relation of a resource, shown as a link. */
export interface LinkSpec {
  /** The property's name in members (the relation field's name, or the name `@property` gives it). */
  name: string
  /**
   * The Prisma relation field when `@property(name: ...)` renames it (`author` for `writer`): its
   * filters and orders are named by it. Absent: `name`.
   */
  field?: string | undefined
  /** `one`: the related item's IRI; `many`: the IRI of the sub-collection `<item>/<name>`. */
  kind: 'one' | 'many'
  target: LinkTarget
  /**
   * To-one: where the related item's id is read from the row: a column of the row (the foreign
   * key, when the relation references the target's id), or `[relation, id]` (the id Prisma
   * selected through the relation), or `[relation]` (a composite key's fields Prisma selected
   * through the relation). Unused for to-many links.
   */
  from?: string | readonly [string, string] | readonly [string] | undefined
  /** To-one: whether every item has a related item (documented as `hydra:required`). Default true. */
  required?: boolean | undefined
  /** The property IRI declared with `@property(iri: ...)`; default: a term of the API's vocabulary. */
  iri?: string | undefined
  /** Documented as the property's `hydra:description`. */
  description?: string | undefined
  /**
   * To-many: the target's to-one relation back to this item (`publisher` for a publisher's
   * `catalogue`), whose filters and orders the sub-collection leaves out.
   */
  back?: string | undefined
}

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
