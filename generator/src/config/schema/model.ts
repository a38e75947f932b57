import type {
  DeclaredEmbed,
  OrderField,
  PagingConfig,
  PropertySpec,
  QuerySpec,
  TotalsSetting,
} from '@prisma-hydra/runtime/defaults'
import type { CursorField, ParameterNames } from './options.js'

/** A scalar or enum field of an exposed model, as the emitter needs it. */
export interface FieldModel {
  /** The field's name. */
  readonly name: string
  /** Prisma type: `String`, `Int`, `BigInt`, `Float`, `Decimal`, `Boolean`, `DateTime`, `Json`, `Bytes`, or an enum's name. */
  readonly type: string
  /** A scalar, or an enum. */
  readonly kind: 'scalar' | 'enum'
  /** Whether it is a list (`String[]`). */
  readonly isList: boolean
  /** Whether every row has a value. */
  readonly isRequired: boolean
  /** The enum's values, for `kind: 'enum'`. */
  readonly enumValues?: readonly string[]
  /** A String stored as a database UUID (`@db.Uuid`). */
  readonly uuid: boolean
  /** A Decimal's scale, when its column declares one (`@db.Decimal(10, 2)`): digits always written. */
  readonly scale?: number
  /** The property IRI declared with `@property(iri: ...)`. */
  readonly iri?: string
}

/**
 * A relation to a served model, shown as a link (docs/hydra.md#relations): to-one, the related
 * item's IRI; to-many, the IRI of the sub-collection `<item>/<name>`.
 */
export interface LinkModel {
  /** The property name: the relation field's, or the one `@property(name: ...)` gives. */
  readonly name: string
  /** The Prisma relation field. */
  readonly field: string
  /** To-one or to-many. */
  readonly kind: 'one' | 'many'
  /** The related model's name. */
  readonly target: string
  /** The Prisma relation's name, which both of its sides share. */
  readonly relation?: string
  /** To-one: whether every item has a related item. */
  readonly required: boolean
  /** The property IRI declared with `@property(iri: ...)`. */
  readonly iri?: string
  /**
   * To-one: the foreign-key column holding the related id (the relation references the target's
   * id), or `[relation, id]`: the related id selected through the relation, or `[relation]`: the
   * related composite key's fields selected through the relation.
   */
  readonly from?: string | [string, string] | [string]
  /**
   * To-many: how the sub-collection selects the related rows of one item: the target's foreign-key
   * column (`column`), or the target's back relation, to-one (`is`) or to-many (`some`).
   */
  readonly condition?: {
    /** The foreign-key column, or the back relation. */
    readonly field: string
    /** By the foreign key, or by the back relation to one item or to several. */
    readonly kind: 'column' | 'is' | 'some'
    /** `column`: the target's relation to the item (Prisma field), which a scope goes through. */
    readonly relation?: string
  }
  /** The related resource, filled once every model is resolved. */
  readonly targetResource?: {
    /** Its collection path: its items' IRIs are `<path>/<key>`. */
    readonly collectionPath: string
    /** Its type IRI, when it declares one. */
    readonly iri?: string
    /** Its key's first field. */
    readonly idField: FieldModel
    /** Its key. */
    readonly key: ItemKeyModel
  }
}

/** Paging settings of one operation after operation > resource > global > built-in precedence. */
export type ResolvedPaging = Omit<PagingConfig, 'parameters' | 'cursor'> & {
  /** The cursor fields as written (`viaCursor`), or null for offset paging. */
  viaCursor: CursorField[] | null
}

/** One field of a cursor key, with what the runtime needs to read and write its values. */
export interface CursorKeyModel {
  /** The field. */
  readonly field: string
  /** Its direction in the order. */
  readonly direction: 'asc' | 'desc'
  /** Its Prisma type: how values are read from links and written to them. */
  readonly type: string
  /** A `@db.Uuid` String: values must be UUIDs. */
  readonly uuid: boolean
}

/** One field of an operation's order, as the runtime's data-access layer reads it. */
export type OrderEntry = OrderField

/**
 * How full paging gets `hydra:totalItems` (docs/annotations.md, `totals`): the runtime's setting,
 * written into each operation as it is.
 */
export type TotalsModel = TotalsSetting

/** A collection operation of a resource, resolved: its path, order, paging, query and caching. */
export interface OperationModel {
  /** `collection` for the resource's own collection, else the name given in `@operation`. */
  readonly name: string
  /** Its path (`/books`, `/books/recent`). */
  readonly path: string
  /** The full order, ending with the primary key so that offset pages never overlap. */
  readonly order: readonly OrderEntry[]
  /**
   * Offset paging: the order as declared (`order`), which the module writes and the runtime ends
   * with the key's fields (`withTieBreaker`) into `order`; empty for cursors, whose key is theirs.
   */
  readonly ownOrder: readonly OrderEntry[]
  /** Its paging settings, resolved. */
  readonly paging: ResolvedPaging
  /** Cursor paging: the full key (the listed fields, then the primary key when they are not unique). */
  readonly cursor: readonly CursorKeyModel[] | null
  /**
   * Offset paging: `order` as a keyset key when every field can be compared with lt/gt, so that
   * unpaged responses read in keyset batches; null otherwise (batches by offset) and for cursors.
   */
  readonly orderKey: readonly CursorKeyModel[] | null
  /** Whether Hydra keys carry the `hydra:` prefix: operation > resource > global > true. */
  readonly hydraPrefix: boolean
  /** What clients may filter and order by (`@filter`, `@order`); absent when nothing. */
  readonly query?: Omit<QuerySpec, 'parameters'>
  /** How full paging counts: operation > resource > global > exact. */
  readonly totals: TotalsModel
  /** `Cache-Control` of its responses (`cacheHeaders`: operation > resource > global > none). */
  readonly cacheControl?: string | undefined
  /** The data-access engine (`engine`: operation > resource > global); absent: the app's. */
  readonly engine?: 'prisma' | 'compiled'
}

/** The fields naming a resource's items in their IRIs (docs/hydra.md#identifiers). */
export interface ItemKeyModel {
  /** One field, or a composite key's fields in the key's order. */
  readonly fields: readonly FieldModel[]
  /** Prisma's name of the key in a unique `where`: the field's, or the compound key's (`orderId_productId`). */
  readonly name: string
}

/**
 * A served model, resolved from its annotations: what the emitter writes a resource module from.
 */
export interface ResourceModel {
  /** The Prisma model name, also the JSON-LD `@type` and the context name. */
  readonly name: string
  /** The PrismaClient property for the model (`bookReview`). */
  readonly delegate: string
  /** The model's table: its mapped name (`@@map`) and its schema (`@@schema`, multi-schema only). */
  readonly table: {
    /** The table's name in the database. */
    readonly name: string
    /** Its schema, with `@@schema`; null otherwise. */
    readonly schema: string | null
  }
  /** The engine of its items and sub-collection parents (`@pagination(engine: ...)` > global). */
  readonly engine?: 'prisma' | 'compiled'
  /**
   * Every scalar field that is not a list: its column (`@map`), Prisma type, whether it is
   * optional and an enum's values, for compiled reads and the checks of row scopes.
   */
  readonly columns: readonly {
    /** The field's name. */
    name: string
    /** Its column's name. */
    column: string
    /** Its Prisma type (an enum's name for an enum). */
    type: string
    /** Whether it may be null. */
    optional: boolean
    /** An enum's values. */
    values?: readonly string[]
    /** A `String` field's native type on PostgreSQL (`Inet` of `@db.Inet`), where it declares one. */
    native?: string
  }[]
  /** Base for generated file and identifier names (`book-review`). */
  readonly fileName: string
  /** Its collection's path (`/books`). */
  readonly collectionPath: string
  /** The key's first field: the whole key when it is not composite (see `key`). */
  readonly idField: FieldModel
  /** Every field of the key: its item IRIs, the tie-breaker of every order. */
  readonly key: ItemKeyModel
  /** Fields shown in the output (hidden fields, and foreign keys of the links, left out). */
  readonly fields: readonly FieldModel[]
  /**
   * Fields an offset-paged operation orders by that are neither shown nor in the key: the
   * resource describes them so that the runtime types the order as a keyset key.
   */
  readonly unshown: readonly FieldModel[]
  /** Relations to served models, shown as links after the fields. */
  readonly links: readonly LinkModel[]
  /** Every field the queries must read: the shown ones, the primary key, cursor and order-key fields. */
  readonly selected: readonly string[]
  /** The resource's collection first, then its extra operations. */
  readonly operations: readonly OperationModel[]
  /** The type IRI declared with `@resource(iri: ...)`. */
  readonly iri?: string
  /** The resource's own setting (resource > global > true): items and their errors follow it. */
  readonly hydraPrefix: boolean
  /** `Cache-Control` of its items (`cacheHeaders`: resource > global > none). */
  readonly cacheControl?: string | undefined
  /** The property filter of its items: the model's own `@filter(properties: ...)`. */
  readonly properties?: PropertySpec
  /** The relations its members and items show embedded (`@property(embed: [...])`). */
  readonly embedded?: readonly DeclaredEmbed[]
  /** `@changes`: the database logs its rows' changes (docs/syncing.md). */
  readonly changes?: true
}

/** The whole schema as the emitter reads it: every served resource and the API's settings. */
export interface HydraModel {
  /** Every served model. */
  readonly resources: readonly ResourceModel[]
  /** The paging parameters' names. */
  readonly parameters: ParameterNames
  /** `platform.collection.order_parameter_name` and `exists_parameter_name`. */
  readonly filterParameters: QuerySpec['parameters']
  /** The datasource provider (`sqlite`, `postgresql`, `mysql`...). */
  readonly provider: string
  /** The API documentation's title and description (`platform.title`, `platform.description`). */
  readonly title?: string
  /** The API documentation's description. */
  readonly description?: string
  /** The global `hydra_prefix`: the entrypoint's and the app's own errors follow it. */
  readonly hydraPrefix: boolean
  /** Every model as the `compiled` engine writes conditions through its relations, by name. */
  readonly compiledModels: Readonly<Record<string, CompiledTableModel>>
  /**
   * The enums whose values the database stores under other names (`@map`), by name: each
   * value's stored name. Empty or absent when there is none.
   */
  readonly compiledEnums?: Readonly<Record<string, Readonly<Record<string, string>>>>
  /** The change log's tables, when some resource says `@changes`. */
  readonly changeLog?: ChangeLogTables
}

/** One relation as the `compiled` engine joins it (the runtime's CompiledRelation). */
export interface CompiledRelationModel {
  /** The related model's name. */
  model: string
  /** To many related rows. */
  many?: true
  /** The foreign key is this model's own. */
  owned?: true
  /** Pairs of equal columns: this model's and the related model's (or the join table's). */
  on: readonly (readonly [string, string])[]
  /** An implicit many-to-many relation's join table, and its columns paired with the related model's. */
  through?: {
    /** The join table. */
    table: TableNameModel
    /** Pairs of equal columns: the join table's and the related model's. */
    on: readonly (readonly [string, string])[]
  }
}

/** A table's mapped name and its schema (null without `@@schema`). */
export interface TableNameModel {
  /** The table's name in the database. */
  name: string
  /** Its schema, or null. */
  schema: string | null
}

/** The change log's tables as the triggers write them (docs/syncing.md). */
export interface ChangeLogTables {
  /** The log. */
  readonly log: TableNameModel
  /** MySQL/MariaDB: the one-row clock whose lock orders the log by commit. */
  readonly clock?: TableNameModel
}

/** One model's table, columns and relations. */
export interface CompiledTableModel {
  /** Its table: its mapped name and its schema. */
  table: TableNameModel
  /** Each scalar field's column and Prisma type. */
  columns: Record<string, readonly [string, string]>
  /** Its `String` fields' native types on PostgreSQL, where they declare one (nativeTypeOf). */
  nativeTypes?: Record<string, string>
  /** The relations the compiled engine joins, by field name. */
  relations: Record<string, CompiledRelationModel>
}
