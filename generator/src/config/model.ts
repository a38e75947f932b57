import type {
  OrderField,
  PagingConfig,
  QuerySpec,
  TotalsSetting,
} from '@prisma-hydra/runtime/defaults'
import type { CursorField, ParameterNames } from './options.js'

/** A scalar or enum field of an exposed model, as the emitter needs it. */
export interface FieldModel {
  name: string
  /** Prisma type: `String`, `Int`, `BigInt`, `Float`, `Decimal`, `Boolean`, `DateTime`, `Json`, `Bytes`, or an enum's name. */
  type: string
  kind: 'scalar' | 'enum'
  isList: boolean
  isRequired: boolean
  /** The enum's values, for `kind: 'enum'`. */
  enumValues?: string[]
  /** A String stored as a database UUID (`@db.Uuid`). */
  uuid: boolean
  /** A Decimal's scale, when its column declares one (`@db.Decimal(10, 2)`): digits always written. */
  scale?: number
  /** The property IRI declared with `@property(iri: ...)`. */
  iri?: string
}

/**
 * A relation to a served model, shown as a link (docs/hydra.md#relations): to-one, the related
 * item's IRI; to-many, the IRI of the sub-collection `<item>/<name>`.
 */
export interface LinkModel {
  /** The property name: the relation field's, or the one `@property(name: ...)` gives. */
  name: string
  /** The Prisma relation field. */
  field: string
  kind: 'one' | 'many'
  /** The related model's name. */
  target: string
  /** To-one: whether every item has a related item. */
  required: boolean
  /** The property IRI declared with `@property(iri: ...)`. */
  iri?: string
  /**
   * To-one: the foreign-key column holding the related id (the relation references the target's
   * id), or `[relation, id]`: the related id selected through the relation, or `[relation]`: the
   * related composite key's fields selected through the relation.
   */
  from?: string | [string, string] | [string]
  /**
   * To-many: how the sub-collection selects the related rows of one item: the target's foreign-key
   * column (`column`), or the target's back relation, to-one (`is`) or to-many (`some`).
   */
  condition?: {
    field: string
    kind: 'column' | 'is' | 'some'
    /** `column`: the target's relation to the item (Prisma field), which a scope goes through. */
    relation?: string
  }
  /** The related resource, filled once every model is resolved. */
  targetResource?: { collectionPath: string; iri?: string; idField: FieldModel; key: ItemKeyModel }
}

/** Paging settings of one operation after operation > resource > global > built-in precedence. */
export type ResolvedPaging = Omit<PagingConfig, 'parameters' | 'cursor'> & {
  viaCursor: CursorField[] | null
}

/** One field of a cursor key, with what the runtime needs to read and write its values. */
export interface CursorKeyModel {
  field: string
  direction: 'asc' | 'desc'
  type: string
  uuid: boolean
}

/** One field of an operation's order, as the runtime's data-access layer reads it. */
export type OrderEntry = OrderField

/**
 * How full paging gets `hydra:totalItems` (docs/annotations.md, `totals`): the runtime's setting,
 * written into each operation as it is.
 */
export type TotalsModel = TotalsSetting

export interface OperationModel {
  /** `collection` for the resource's own collection, else the name given in `@operation`. */
  name: string
  path: string
  /** The full order, ending with the primary key so that offset pages never overlap. */
  order: OrderEntry[]
  paging: ResolvedPaging
  /** Cursor paging: the full key (the listed fields, then the primary key when they are not unique). */
  cursor: CursorKeyModel[] | null
  /**
   * Offset paging: `order` as a keyset key when every field can be compared with lt/gt, so that
   * unpaged responses read in keyset batches; null otherwise (batches by offset) and for cursors.
   */
  orderKey: CursorKeyModel[] | null
  /** Whether Hydra keys carry the `hydra:` prefix: operation > resource > global > true. */
  hydraPrefix: boolean
  /** What clients may filter and order by (`@filter`, `@order`); absent when nothing. */
  query?: Omit<QuerySpec, 'parameters'>
  /** How full paging counts: operation > resource > global > exact. */
  totals: TotalsModel
  /** `Cache-Control` of its responses (`cacheHeaders`: operation > resource > global > none). */
  cacheControl?: string | undefined
  /** The data-access engine (`engine`: operation > resource > global); absent: the app's. */
  engine?: 'prisma' | 'compiled'
}

/** The fields naming a resource's items in their IRIs (docs/hydra.md#identifiers). */
export interface ItemKeyModel {
  /** One field, or a composite key's fields in the key's order. */
  fields: FieldModel[]
  /** Prisma's name of the key in a unique `where`: the field's, or the compound key's (`orderId_productId`). */
  name: string
}

export interface ResourceModel {
  /** The Prisma model name, also the JSON-LD `@type` and the context name. */
  name: string
  /** The PrismaClient property for the model (`bookReview`). */
  delegate: string
  /** The model's table: its mapped name (`@@map`) and its schema (`@@schema`, multi-schema only). */
  table: { name: string; schema: string | null }
  /** The engine of its items and sub-collection parents (`@pagination(engine: ...)` > global). */
  engine?: 'prisma' | 'compiled'
  /** Every scalar field that is not a list: its column (`@map`) and Prisma type, for compiled reads. */
  columns: { name: string; column: string; type: string }[]
  /** Base for generated file and identifier names (`book-review`). */
  fileName: string
  collectionPath: string
  /** The key's first field: the whole key when it is not composite (see `key`). */
  idField: FieldModel
  /** Every field of the key: its item IRIs, the tie-breaker of every order. */
  key: ItemKeyModel
  /** Fields shown in the output (hidden fields, and foreign keys of the links, left out). */
  fields: FieldModel[]
  /** Relations to served models, shown as links after the fields. */
  links: LinkModel[]
  /** Every field the queries must read: the shown ones, the primary key, cursor and order-key fields. */
  selected: string[]
  /** The resource's collection first, then its extra operations. */
  operations: OperationModel[]
  /** The type IRI declared with `@resource(iri: ...)`. */
  iri?: string
  /** The resource's own setting (resource > global > true): items and their errors follow it. */
  hydraPrefix: boolean
  /** `Cache-Control` of its items (`cacheHeaders`: resource > global > none). */
  cacheControl?: string | undefined
}

export interface HydraModel {
  resources: ResourceModel[]
  parameters: ParameterNames
  /** `platform.collection.order_parameter_name` and `exists_parameter_name`. */
  filterParameters: QuerySpec['parameters']
  /** The datasource provider (`sqlite`, `postgresql`, `mysql`...). */
  provider: string
  /** The API documentation's title and description (`platform.title`, `platform.description`). */
  title?: string
  description?: string
  /** The global `hydra_prefix`: the entrypoint's and the app's own errors follow it. */
  hydraPrefix: boolean
}
