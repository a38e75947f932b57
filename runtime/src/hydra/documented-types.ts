/**
 * @module
 * The description of an API that its entrypoint, its Hydra documentation and its OpenAPI-style
 * documents are rendered from: its types, their fields, links and collections. Pure types, and
 * the IRIs the documentation gives classes and properties.
 */
import type { AuthenticationSettings, ModelRules } from '../contract/access-rules.js'
import type { KeyField } from '../contract/keys.js'
import type { PagingConfig } from '../contract/paging.js'
import type { DeclaredEmbed, PropertySpec } from '../contract/properties.js'
import type { QuerySpec } from '../contract/query.js'
import type { LinkSpec } from '../contract/resource.js'
import type { TotalAccuracy } from '../paging/totals.js'

/** A field as the documentation describes it. */
export interface DocumentedField {
  /** The field's name. */
  name: string
  /** Prisma type (`String`, `Int`, `DateTime`...) or an enum's name: decides the documented range. */
  type: string
  /** Whether it is a list. */
  list?: boolean | undefined
  /** Default true. */
  required?: boolean | undefined
  /** Its property IRI; default: a term of the API's vocabulary. */
  iri?: string | undefined
  /** Its `hydra:description`. */
  description?: string | undefined
  /** An enum's values: the range is then a datatype of exactly these strings (`owl:oneOf`). */
  values?: readonly string[] | undefined
}

/** A relation shown as a link, as the documentation describes it. */
export type DocumentedLink = Pick<
  LinkSpec,
  'name' | 'kind' | 'required' | 'iri' | 'description' | 'back'
> & {
  /** The type it leads to: its name and class IRI. */
  target: Pick<LinkSpec['target'], 'name' | 'iri'>
}

/** A collection of a type, as the entrypoint lists it. */
export interface DocumentedCollection {
  /** The entrypoint's key for it (`book`, `bookRecent`). */
  name: string
  /** A generated operation's name (`recent`), which access rules name. */
  operation?: string | undefined
  /** Its path (`/books/recent`). */
  path: string
  /** Its paging settings. */
  paging: PagingConfig
  /** What clients may filter and order it by (docs/filters.md); absent: nothing. */
  query?: QuerySpec | undefined
  /** Its `hydra:description`. */
  description?: string | undefined
  /** How its full paging counts; when not `exact`, the documentation declares `totalItemsAccuracy`. */
  totals?: TotalAccuracy | undefined
  /** Whether its pages' Hydra keys carry the `hydra:` prefix (the OpenAPI schema follows). Default true. */
  hydraPrefix?: boolean | undefined
}

/** A type of the API: its members' fields and the collections that list them. */
export interface DocumentedType {
  /** The type's name: its members' `@type`. */
  name: string
  /**
   * The IRI of its semantic type (`https://schema.org/Book`): the superclass of its class
   * (`rdfs:subClassOf`), whose IRI is always a term of the API's vocabulary (`#Book`).
   */
  iri?: string | undefined
  /** Its `hydra:description`. */
  description?: string | undefined
  /** Its members' fields. */
  fields: readonly DocumentedField[]
  /** Relations shown as links (docs/hydra.md#relations), documented after the fields. */
  links?: readonly DocumentedLink[] | undefined
  /** Items are served at `<itemPath>/{id}`; left out for types without item routes. */
  itemPath?: string | undefined
  /** The kind of the items' key (`Int`, `BigInt`, `String`): the OpenAPI schema of `{id}`. */
  idKind?: string | undefined
  /** The names of the items' key fields, which no rule hides: they are in every `@id`. */
  keyNames?: readonly string[] | undefined
  /** A composite key's fields, in the key's order: the form of `{id}` (hydra/item-key.ts). */
  keyFields?: readonly KeyField[] | undefined
  /** The collections listing its members, as the entrypoint lists them. */
  collections: readonly DocumentedCollection[]
  /** The path of its change feed (`/books/changes`, docs/syncing.md); absent: none. */
  changesPath?: string | undefined
  /** The property filter of its items (docs/member-shape.md); absent: items show every property. */
  properties?: PropertySpec | undefined
  /** The relations its members and items show embedded (docs/member-shape.md). */
  embedded?: readonly DeclaredEmbed[] | undefined
}

/** The API as the entrypoint and the documentation describe it: its title and types. */
export interface ApiDescription {
  /** The documentation's title. */
  title: string
  /** The API's version, as the OpenAPI document states it (default `0.0.0`). */
  version?: string | undefined
  /** Its description. */
  description?: string | undefined
  /** Every type, generated or custom. */
  types: readonly DocumentedType[]
  /**
   * The app's access rules (docs/security.md): the OpenAPI document declares the 401 and 403 of
   * the guarded routes, and their security scheme.
   */
  access?: ModelRules<never> | undefined
  /** The 401's challenge, whose scheme the OpenAPI document names. */
  authentication?: AuthenticationSettings | undefined
}

/**
 * `#Book`: a class of the API's own vocabulary, as the members' `@type` (`Book`) expands through
 * their context's `@vocab`. A type's declared IRI is its superclass
 * (docs/hydra.md#class-ids-and-collections-members).
 */
export const classId = (type: Pick<DocumentedType, 'name'>) => `#${type.name}`
export const propertyId = (
  type: Pick<DocumentedType, 'name'>,
  field: Pick<DocumentedField, 'name' | 'iri'>
) => field.iri ?? `#${type.name}/${field.name}`
