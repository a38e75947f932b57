/**
 * What an operation's property filter offers (docs/member-shape.md), as the generator emits it:
 * the properties clients may select, and the to-one relations they may embed. Pure types.
 */

/** A field of an embedded item, with the Prisma type its value is written by. */
export interface EmbeddedField {
  /** Its name. */
  name: string
  /** The property IRI it declares (`@property(iri: ...)`); default: a term of the vocabulary. */
  iri?: string
  /** Its Prisma type (an enum's name for an enum). */
  type: string
  /** Whether it is a list. */
  list?: boolean
  /** A Decimal's scale (`@db.Decimal(10, 2)`). */
  scale?: number
  /** Default true; an optional field's value may be null. */
  required?: boolean
  /** An enum's values. */
  values?: readonly string[]
}

/** What a to-one relation embeds: its target model, the target's key and its selectable fields. */
export interface EmbedSpec {
  /** The related model's name: the embedded item's `@type`; its rules decide what is embedded. */
  model: string
  /** Its delegate on the Prisma client (`author`). */
  delegate: string
  /** The target's key fields: always read, so that an item outside the caller's scope keeps its IRI. */
  key: readonly string[]
  /** The fields embedded items show. */
  fields: readonly EmbeddedField[]
  /**
   * A to-many relation declared embedded (`@property(embed: [...], first: 3)`): at most this many
   * related items are shown, the first of its sub-collection in the target's key order.
   */
  first?: number | undefined
  /**
   * A to-many relation: how a related row is tied to one item, as its sub-collection ties them
   * (the target's foreign key, or its relation back, to one item or to several).
   */
  condition?:
    | {
        /** By the target's foreign key, or by its relation to one item or to several. */
        kind: 'column' | 'is' | 'some'
        /** The foreign key column, or the relation field. */
        field: string
        /** With `column`: the target's relation field back to the item. */
        relation?: string | undefined
      }
    | undefined
  /** With `first`: the sub-collection's page those items are, which the `hydra:view` names. */
  page?: EmbeddedPage | undefined
}

/**
 * The page of a sub-collection (its target's collection operation) a capped to-many embed shows
 * (docs/member-shape.md): written `?page=1`, with the page size as well when clients choose it
 * there and it differs from `first`, in that operation's parameter names.
 */
export interface EmbeddedPage {
  /** The page number's parameter. */
  page: string
  /** The page size's parameter, when the page is asked with `first` as its size. */
  itemsPerPage?: string | undefined
  /** The page's size: `first` when asked so, else the sub-collection's; absent when unpaged. */
  size?: number | undefined
  /** Its pages are partial: they link to the next page, not to the first. */
  partial?: boolean | undefined
}

/** A property a client may select: a field, or a link (to-one links may be embedded). */
export interface SelectableProperty {
  /** Its name in members (a link's `@property(name: ...)`). */
  name: string
  /** The Prisma relation field when a link's name differs from it. */
  field?: string | undefined
  /** A to-one link's embedding, when clients may embed it (`properties[author][]=name`). */
  embed?: EmbedSpec | undefined
}

/**
 * A relation a resource declares embedded (`@property(embed: [name])`, docs/member-shape.md): its
 * members and items show the related item with `embed.fields` in place of its IRI, without a
 * request parameter; a to-many relation (`embed.first`) the first page of its sub-collection.
 * With `operations`, only those operations' answers do (filters/declared-embeds.ts); a relation
 * may then be declared once per operation, with different fields.
 */
export type DeclaredEmbed = SelectableProperty & {
  /** What is embedded. */
  embed: EmbedSpec
  /**
   * The operations it is limited to: `collection`, an extra operation's name, `item`, a
   * sub-collection as its parent model and link (`Book.loans`). Absent: every operation that no
   * declaration of the same relation names.
   */
  operations?: readonly string[] | undefined
}

/** An operation's property filter, as the generator emits it. */
export interface PropertySpec {
  /** The query parameter (API Platform's `parameterName`; default `properties`). */
  parameter: string
  /** What clients may select. */
  properties: readonly SelectableProperty[]
}
