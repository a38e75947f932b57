/**
 * @module
 * What a collection operation lets clients filter and order by (docs/filters.md), as the generator
 * emits it (`QuerySpec`): its filters, orders and their value types. Pure types and constants.
 */

import type { PropertySpec } from './properties.js'

/**
 * How a database's LIKE reads `%` and `_` literally: after a backslash, inside brackets, or, as
 * Prisma's client writes it, not at all (SQLite's LIKE has an escape character only when the
 * statement names one with `ESCAPE`).
 */
export type LikeEscape = 'backslash' | 'brackets' | 'none'

/** SearchFilter strategies; the `i` variants compare case-insensitively. */
export const SEARCH_STRATEGIES = [
  'exact',
  'partial',
  'start',
  'end',
  'word_start',
  'iexact',
  'ipartial',
  'istart',
  'iend',
  'iword_start',
] as const
/** One of {@link SEARCH_STRATEGIES}. */
export type SearchStrategy = (typeof SEARCH_STRATEGIES)[number]

/** RangeFilter's operators (`price[between]=10..20`, `price[gt]=10`). */
export const RANGE_OPERATORS = ['between', 'gt', 'gte', 'lt', 'lte'] as const
/** One of {@link RANGE_OPERATORS}. */
export type RangeOperator = (typeof RANGE_OPERATORS)[number]

/** DateFilter's operators (`publishedAt[before]=2024-01-31`). */
export const DATE_OPERATORS = ['before', 'strictly_before', 'after', 'strictly_after'] as const
/** One of {@link DATE_OPERATORS}. */
export type DateOperator = (typeof DATE_OPERATORS)[number]

/** DateFilter's null handling (API Platform's constants). */
export const DATE_NULLS = [
  'exclude_null',
  'include_null_before',
  'include_null_after',
  'include_null_before_and_after',
] as const
/** One of {@link DATE_NULLS}. */
export type DateNulls = (typeof DATE_NULLS)[number]

/** How a field's values are read: its Prisma type (or `Enum`), and whether a String is a UUID. */
export interface ValueType {
  /** `String`, `Int`, `BigInt`, `Float`, `Decimal`, `DateTime`, `Boolean`, or `Enum`. */
  type: string
  /** A `@db.Uuid` String: values must be UUIDs. */
  uuid?: boolean | undefined
  /** The values of an `Enum` field. */
  enumValues?: readonly string[] | undefined
}

/** A to-one relation searched by the related item's IRI or id, through its foreign key. */
export interface RelationTarget {
  /** The scalar foreign-key field the condition is written on (`authorId`). */
  foreignKey: string
  /** The related resource's collection path (`/authors`): its items' IRIs are `<path>/<id>`. */
  collectionPath: string
  /** The related resource's id type. */
  id: ValueType
  /**
   * The related resource's key field, when the foreign key references another unique field of it
   * (`references: [handle]`): the condition is then on that key, through the relation.
   */
  through?: string | undefined
  /**
   * The related resource's composite key (its `@@id`, or the `@@unique` naming its items), field by
   * field in the key's order: values are then written as its IRIs write it
   * (`orderId=3;productId=7`), and `id` is its first field's type.
   */
  key?: readonly RelatedKeyField[] | undefined
  /** The related model's name: its scope decides which related items the caller can see. */
  model?: string | undefined
}

/** One field of a related composite key, and the foreign key of this model holding it. */
export interface RelatedKeyField extends ValueType {
  /** The related key field. */
  name: string
  /** This model's column referencing it; absent: the condition goes through the relation. */
  foreignKey?: string | undefined
}

/** One relation of a path after its first (`author` of `book.author.name`). */
export interface RelationHop {
  /** The relation field of the model the hop before reaches (`author` of Book). */
  relation: string
  /** To-many: one of the related items matches (Prisma's `some`). */
  many?: boolean | undefined
  /** The related model's name: its scope decides which related items the caller can see. */
  model?: string | undefined
  /** The relation's property name when `@property(name: ...)` renames it (hidden fields name it so). */
  name?: string | undefined
}

/**
 * A field of a related model, one relation away or more (`author.name`, `book.author.name`; API
 * Platform's nested properties): the parameter is the dotted name, the condition is written on the
 * last related item's field.
 */
export interface RelatedField {
  /** The relation field of this model (`author`; `book` of `book.author.name`). */
  relation: string
  /** The field of the last related model (`name`). */
  field: string
  /**
   * The relations after the first, in order, each from the model the one before reaches
   * (`[{ relation: 'author', model: 'Author' }]` for `book.author.name`); absent one relation away.
   */
  next?: readonly RelationHop[] | undefined
  /**
   * A to-many relation: an item matches when one of its related items matches every condition on
   * that relation (Prisma's `some`; API Platform's join). Otherwise a to-one relation: the
   * related item must exist and match.
   */
  many?: boolean | undefined
  /** The related model's name: its scope decides which related items the caller can see. */
  model?: string | undefined
}

/** Set on a filter, an order field or a condition read through a relation (`author.name`). */
export interface Through {
  /** The related field it is read through; absent: a field of the model itself. */
  through?: RelatedField | undefined
}

/**
 * A filter an operation offers (docs/filters.md), by its `kind`: API Platform's SearchFilter,
 * RangeFilter, DateFilter, BooleanFilter, NumericFilter and ExistsFilter.
 */
export type FilterSpec = (
  | ({
      /** SearchFilter: `title=dune`, by the strategy. */
      kind: 'search'
      /** The field searched, the parameter's name. */
      field: string
      /** How a value matches. */
      strategy: SearchStrategy
      /** A to-one relation searched by the related item's IRI or id. */
      relation?: RelationTarget | undefined
      /**
       * Set on an exact search of the item key (`id`): the collection path of the resource's
       * items, whose IRIs (`/authors/3`) the search takes as well as ids (`3`).
       */
      items?: string | undefined
    } & ValueType)
  | ({
      /** RangeFilter: `price[between]=10..20`. */
      kind: 'range'
      /** The field compared. */
      field: string
    } & ValueType)
  | {
      /** DateFilter: `publishedAt[after]=2024-01-01`. */
      kind: 'date'
      /** The date field compared. */
      field: string
      /** API Platform's null handling; absent: a null date never matches a bound. */
      nulls?: DateNulls | undefined
    }
  | {
      /** BooleanFilter: `available=true`. */
      kind: 'boolean'
      /** The boolean field. */
      field: string
    }
  | ({
      /** NumericFilter: `pages=320`. */
      kind: 'numeric'
      /** The number field. */
      field: string
    } & ValueType)
  /**
   * `relation`: an optional to-one relation, which exists when it has a related item (of `model`,
   * the related model's name). `json`: a `Json` field, which exists when it holds neither the
   * database's null nor JSON's `null` (both are served as `null`), which the `prisma` engine
   * compares with the client's `Prisma.AnyNull`: the model source's `jsonNull` on generated
   * routes, the spec's on custom collections and sources given by hand.
   */
  | {
      /** ExistsFilter: `exists[publishedAt]=true`. */
      kind: 'exists'
      /** The optional field or relation. */
      field: string
      /** The field is an optional to-one relation. */
      relation?: boolean | undefined
      /** The relation's model. */
      model?: string | undefined
      /** The field is a `Json` field. */
      json?: boolean | undefined
    }
) &
  Through

/** A field clients may order by, with what a keyset on it needs (cursor-paged operations). */
export interface OrderFieldSpec extends ValueType, Through {
  /** The field. */
  field: string
  /** An optional field: never part of a keyset (a null has no place in the key order). */
  nullable?: boolean | undefined
}

/** Everything an operation accepts besides paging, as the generator emits it. */
export interface QuerySpec {
  /** The filters clients may use. */
  filters: readonly FilterSpec[]
  /** Orderable fields; empty: the `order` parameter is not read (an unknown parameter). */
  order: readonly OrderFieldSpec[]
  /**
   * The primary key, which ends every client order (always set on generated operations; a custom
   * collection without one orders by exactly the fields given).
   */
  id?: OrderFieldSpec | undefined
  /** A composite item key's fields, which end every client order instead of `id` (its first field). */
  key?: readonly OrderFieldSpec[] | undefined
  /** API Platform's `order_parameter_name` and `exists_parameter_name`. */
  parameters: {
    /** The order parameter's name (default `order`). */
    order: string
    /** The exists filter's parameter name (default `exists`). */
    exists: string
  }
  /**
   * How the database's LIKE takes `%` and `_` literally (Prisma passes them through as wildcards):
   * after a backslash (PostgreSQL, MySQL), inside brackets (SQL Server), or not at all (SQLite,
   * where a search value holding one is refused).
   */
  likeEscape: LikeEscape
  /**
   * The app's Prisma client's `Prisma.AnyNull`, set when a `Json` field takes an exists filter:
   * Prisma compares a Json field with its own null sentinels only, never with a plain `null`.
   * Read by custom collections and sources given by hand (generated routes read the model
   * source's).
   */
  jsonNull?: unknown
  /** The property filter (docs/member-shape.md): which properties clients may select and embed. */
  properties?: PropertySpec | undefined
}
