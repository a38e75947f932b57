/**
 * Relations served as links (docs/hydra.md#relations): a to-one relation is the related item's
 * IRI (or null), a to-many relation the IRI of a paged sub-collection under the item
 * (`/authors/3/books`).
 */

/** The type a link leads to: its name, its class IRI when it declares one, where its items live. */
export interface LinkTarget {
  name: string
  iri?: string | undefined
  collectionPath: string
}

/** A relation of a resource, shown as a link. */
export interface LinkSpec {
  /** The property's name in members (the relation field's name, or the name `@property` gives it). */
  name: string
  /** `one`: the related item's IRI; `many`: the IRI of the sub-collection `<item>/<name>`. */
  kind: 'one' | 'many'
  target: LinkTarget
  /**
   * To-one: where the related item's id is read from the row: a column of the row (the foreign
   * key, when the relation references the target's id), or `[relation, id]` (the id Prisma
   * selected through the relation). Unused for to-many links.
   */
  from?: string | readonly [string, string] | undefined
  /** To-one: whether every item has a related item (documented as `hydra:required`). Default true. */
  required?: boolean | undefined
  /** The property IRI declared with `@property(iri: ...)`; default: a term of the API's vocabulary. */
  iri?: string | undefined
  /** Documented as the property's `hydra:description`. */
  description?: string | undefined
}

/** A key as a path segment: an integer as it is written, anything else percent-encoded. */
export function idSegment(id: unknown): string {
  // An integer key is digits and a sign, which need no escaping.
  return Number.isSafeInteger(id) || typeof id === 'bigint'
    ? String(id)
    : encodeURIComponent(String(id))
}

type LinkWriter = (row: Record<string, unknown>, itemIri: string, base: string) => string | null

/** Builds the writer of one link's value once, so serving a row is a plain call. */
export function linkWriter(link: LinkSpec): LinkWriter {
  if (link.kind === 'many') {
    const suffix = `/${link.name}`
    return (_row, itemIri) => `${itemIri}${suffix}`
  }
  const path = link.target.collectionPath
  const from = link.from ?? link.name
  const read =
    typeof from === 'string'
      ? (row: Record<string, unknown>) => row[from]
      : (row: Record<string, unknown>) =>
          (row[from[0]] as Record<string, unknown> | null | undefined)?.[from[1]]
  return (row, _itemIri, base) => {
    const id = read(row)
    return id === null || id === undefined ? null : `${base}${path}/${idSegment(id)}`
  }
}
