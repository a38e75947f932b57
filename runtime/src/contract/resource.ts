/**
 * @module
 * A resource as a generated module describes it: its name, collection path, key, fields and
 * links, and the member writer `defineResource` (hydra/resource.ts) builds from that description.
 */
import type { IdKind, IdValue, KeySpec } from './keys.js'
import type { CompiledModel } from './model-source.js'
import type { DeclaredEmbed, PropertySpec } from './properties.js'

/** The type a link leads to: its name, the type IRI it declares if any, where its items live. */
export interface LinkTarget {
  /** Its model name. */
  name: string
  /** The type IRI it declares (`@resource(iri: ...)`), its class's superclass. */
  iri?: string | undefined
  /** Where its items live (`/authors`). */
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
  /** The type it leads to. */
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

/** A field shown in the output, with its Prisma type (which decides how its value is written). */
export interface FieldSpec {
  /** Its name in members. */
  name: string
  /** Its Prisma type (an enum's name for an enum). */
  type: string
  /** Whether it is a list (`String[]`). */
  list?: boolean
  /** Whether every item has a value (documented as `hydra:required`). Default true. */
  required?: boolean
  /** The field's property IRI (`https://schema.org/name`); default: a term of the API's vocabulary. */
  iri?: string
  /** Documented as the property's `hydra:description`. */
  description?: string
  /** An enum's values: documented as the range's `owl:oneOf`. */
  values?: readonly string[]
  /** A Decimal's scale (`@db.Decimal(10, 2)`): its values are written with that many decimals. */
  scale?: number
  /** A String stored as a database UUID (`@db.Uuid`): a key of it reads UUIDs only. */
  uuid?: boolean
}

/** A resource as the runtime serves it: its name, paths, key, fields and links. */
export interface ResourceSpec<K extends IdKind> {
  /** The model name: the JSON-LD `@type` and the context's name. */
  name: string
  /** Its collection's path (`/books`): its items' IRIs are `<path>/<key>`. */
  collectionPath: string
  /** The key naming items (docs/hydra.md#identifiers): one field, or a composite key's fields. */
  id: KeySpec<K>
  /** The fields its members show, in order. */
  fields: readonly FieldSpec[]
  /**
   * Fields its operations order by that it does not show (a link's foreign key, a `@hidden`
   * field): their types make the order a keyset key (order-key.ts).
   */
  unshown?: readonly FieldSpec[] | undefined
  /** Relations to served types, shown as links after the fields (docs/hydra.md#relations). */
  links?: readonly LinkSpec[] | undefined
  /**
   * The type's IRI (`https://schema.org/Book`): the superclass of its class, which is always a term
   * of the API's vocabulary (`#Book`, docs/hydra.md#class-ids-and-collections-members).
   */
  iri?: string
  /** Documented as the class's `hydra:description`. */
  description?: string
  /** Whether the resource's own responses (items, errors) use the `hydra:` prefix. Default true. */
  hydraPrefix?: boolean
  /**
   * Whether its collection serves its change feed at `<collectionPath>/changes` (`@changes`,
   * docs/syncing.md): documented, and linked from the collection.
   */
  changes?: boolean | undefined
  /**
   * The schema's datasource provider: ids and cursor values are checked against what its columns
   * store. Left out: the rules every supported database shares.
   */
  provider?: string | undefined
  /**
   * The `Cache-Control` of its items (the `cacheHeaders` annotation, docs/annotations.md); none
   * when left out.
   */
  cacheControl?: string | undefined
  /**
   * The property filter of its items (docs/member-shape.md): the model's own
   * `@filter(properties: ...)`, read by `GET /books/1?properties[]=title` as by its collection.
   */
  properties?: PropertySpec | undefined
  /**
   * The to-one relations its members and items show embedded (`@property(embed: [...])`,
   * docs/member-shape.md), each with the fields it declares.
   */
  embedded?: readonly DeclaredEmbed[] | undefined
}

/**
 * The type of a resource's members (`BookMember` is `MemberOf<typeof bookResource>`): what
 * `hydra:member` and the item route give for one row.
 */
export type MemberOf<R> = R extends Resource<infer M, IdKind> ? M : never

/** A resource ready to serve: turns database rows into JSON-LD members of type `M`. */
export interface Resource<M, K extends IdKind = IdKind> extends ResourceSpec<K> {
  /** `base` is the path prefix the app is mounted under ('' at the root). */
  toMember(row: object, base: string): M
  /** The item IRI of a row (`/books/1`), under `base`. */
  iriOf(row: object, base: string): string
  /**
   * The typed key for a path segment (as `c.req.path` has it), or undefined when it cannot be one
   * (→ 404): not a value of the key's type the database stores (`readColumnValue`), or not
   * written the way the resource writes its IRIs (`/books/01` is not `/books/1`).
   */
  parseId(segment: string): IdValue<K> | undefined
  /**
   * The fields its pages may be tagged by the values of (docs/caching.md#value-tags), which an
   * insert or a delete of one of its rows purges the value tags of; absent without the compiled
   * description of its model's columns (`ResourceSource.compiled`), when its inserts and deletes
   * purge its model tag.
   */
  valueFields?: ReadonlySet<string> | undefined
}

/**
 * What a resource takes from the model source it is read from (model-source.ts's
 * `ModelSource`): the key naming its items and the datasource provider.
 */
export interface ResourceSource<K extends IdKind> {
  /** The key naming its items. */
  key: KeySpec<K>
  /** The datasource provider. */
  provider?: string | undefined
  /**
   * Its model's scalar fields as the compiled engine reads them (`ModelSource.compiled`): which
   * of them its pages may be tagged by the values of (docs/caching.md#value-tags).
   */
  compiled?: Pick<CompiledModel, 'columns' | 'nativeTypes'> | undefined
}

/** A resource as a generated module describes it: all but what its model source gives. */
export type ResourceDescription = Omit<ResourceSpec<IdKind>, 'id' | 'provider'>
