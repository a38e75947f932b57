/**
 * @module
 * What the data-access layer reads a resource from, as the generator emits it: the model's
 * client property, table and columns, the order and totals of each operation, and how the rows
 * of a sub-collection are tied to their parent. Pure data; data-access.ts reads it.
 */

/**
 * The key an item is found by: one field (`name` is the field), or a composite key whose `name`
 * is Prisma's name of the compound key in a `where` (`orderId_productId`) and whose `fields` are
 * its columns. The resource's key description (keys.ts's KeySpec) is one.
 */
export interface ModelKey {
  /** The key field, or Prisma's name of the compound key. */
  name: string
  /** A composite key's fields. */
  fields?:
    | readonly {
        /** The field's name. */
        name: string
      }[]
    | undefined
}

/** Where a resource's rows live and which columns its routes read. */
export interface ModelSource<Key extends ModelKey = ModelKey> {
  /** The PrismaClient property of the model (`bookReview`). */
  delegate: string
  /** The datasource provider: the dialect of the SQL the layer writes (counts, estimates). */
  provider: string
  /** The model's table, for the SQL the layer writes. */
  table: TableName
  /** The key that finds an item (`/books/:id`). */
  key: Key
  /** Prisma's `select` of every column the routes read. */
  select: Readonly<Record<string, unknown>>
  /**
   * What the `compiled` engine reads, written at generate time: the statement selecting `select`'s
   * columns in its order, each scalar field's column and Prisma type, and the relations it joins.
   * Absent when a link is read through a relation it does not join: such a model is read by the
   * `prisma` engine alone.
   */
  compiled?: CompiledModel | undefined
  /** The resource's engine (`@resource(engine: ...)`); absent: the app's, else `prisma`. */
  engine?: EngineName | undefined
  /**
   * The app's client's `Prisma.AnyNull`, set when an operation filters a `Json` field by exists:
   * the `prisma` engine compares the field with it (Prisma compares a Json field with its own null
   * sentinels only, never with a plain `null`).
   */
  jsonNull?: unknown
}

/** The engines of the data-access layer: Prisma's client, or SQL written at generate time. */
export type EngineName = 'prisma' | 'compiled'

/** A model as the `compiled` engine reads it. */
export interface CompiledModel {
  /** `SELECT "id", "title", … FROM "Book"`: `select`'s columns, in its order. */
  select: string
  /**
   * Each scalar field: its column, its Prisma type (`Int`, `DateTime`, an enum's name…), whether
   * it is optional (left out: required), and an enum's values.
   */
  columns: Readonly<Record<string, CompiledColumn>>
  /**
   * The native types (`@db.Inet`, `@db.Citext`...) of its `String` fields that declare one, on
   * PostgreSQL, by field: a page is tagged by the values of such a field only where equality is
   * text equality (`Text`, `VarChar`, `Char`, `Uuid`: docs/caching.md#value-tags).
   */
  nativeTypes?: Readonly<Record<string, string>> | undefined
  /**
   * The to-one relations a page reads as a join (docs/member-shape.md), by relation field: to embed
   * the related row, or to read the key of a link only the related row holds (the foreign key is
   * the related model's, or it refers to other columns than the related key's).
   */
  joins?: Readonly<Record<string, CompiledJoin>> | undefined
  /** The model's name among `models`. */
  name?: string | undefined
  /**
   * Every model of the schema as conditions and orders through relations reach it, by name (the
   * generated `compiledModels`): a relation it does not hold is read by the `prisma` engine.
   */
  models?: CompiledModels | undefined
  /**
   * The enums of the schema whose values the database stores under other names (`@map`), by name
   * (the generated `compiledEnums`): their values are written and read under those names.
   */
  enums?: CompiledEnums | undefined
}

/**
 * Each enum of a schema one of whose values the database stores under another name (`@map`), by
 * the enum's name: the name the database stores each of its values under, by value.
 */
export type CompiledEnums = Readonly<Record<string, Readonly<Record<string, string>>>>

/** A to-one relation as the `compiled` engine joins it to embed the related row. */
export interface CompiledJoin {
  /** The related model's table. */
  table: TableName
  /**
   * A column of the model's and the related model's column equal to it: the model's foreign key
   * and the related column it refers to, or the model's key and the related foreign key to it.
   */
  on: readonly [from: string, to: string]
  /** A relation on several columns: its other pairs, as `on`'s. */
  alsoOn?: readonly (readonly [from: string, to: string])[] | undefined
  /** The related model's selected scalar fields: what an embed may ask of it. */
  columns: Readonly<Record<string, CompiledColumn>>
}

/** The models of a schema, by name, as the `compiled` engine writes conditions through them. */
export type CompiledModels = Readonly<Record<string, CompiledTable>>

/** One model's table, scalar fields and relations. */
export interface CompiledTable {
  /** The model's table. */
  table: TableName
  /** Each scalar field: its column and type, as `CompiledModel.columns`. */
  columns: Readonly<Record<string, CompiledColumn>>
  /** Its `String` fields' native types, as `CompiledModel.nativeTypes`. */
  nativeTypes?: Readonly<Record<string, string>> | undefined
  /** The relations the compiled engine writes conditions through, by field name. */
  relations: Readonly<Record<string, CompiledRelation>>
}

/**
 * A relation to `model`: its rows are those whose columns equal the model's, pairwise (`on`:
 * `[this model's column, the related model's]`); through an implicit many-to-many relation's
 * join table, `on` pairs this model's columns with the join table's, and `through.on` the join
 * table's with the related model's.
 */
export interface CompiledRelation {
  /** The related model's name. */
  model: string
  /** To many related rows (a list field); absent: to one. */
  many?: true | undefined
  /** The foreign key is this model's own (`on`'s first columns): its null is no related row. */
  owned?: true | undefined
  /** Pairs of equal columns: this model's and the related model's (or the join table's). */
  on: readonly (readonly [own: string, related: string])[]
  /** Implicit many-to-many: Prisma's join table (`_AToB`) and its columns to the related model. */
  through?: CompiledJoinTable | undefined
}

/** An implicit many-to-many relation's join table (`_AToB`). */
export interface CompiledJoinTable {
  /** The join table. */
  table: TableName
  /** Pairs of equal columns: the join table's and the related model's. */
  on: readonly (readonly [join: string, related: string])[]
}

/** A scalar field as the `compiled` engine reads it, and row scopes are checked against. */
export type CompiledColumn = readonly [
  column: string,
  type: string,
  optional?: boolean,
  values?: readonly string[],
]

/**
 * A sub-collection (`/authors/:id/books`): the parent model, found by its key before any row is
 * read, and the condition that ties a row to it: its foreign key (`column`), or the relation
 * `field` to one parent (`is`) or to several (`some`, implicit many-to-many).
 */
export interface RelationSource<Key extends ModelKey = ModelKey> {
  /** The parent model. */
  parent: {
    /** The parent's model name, for the 404's detail. */
    name: string
    /** The parent's PrismaClient property. */
    delegate: string
    /** The parent's key, read from the path as the parent's item route reads it. */
    key: Key
    /**
     * The parent's link the sub-collection serves, by its API name (`works`): a caller the parent
     * hides it from gets the 404 of a missing parent.
     */
    link?: string | undefined
  }
  /**
   * The condition on the parent: its key in the target's foreign key (`column`, with the
   * target's `relation` field to it), or in the target's relation `field` to one parent (`is`) or
   * to several (`some`). A parent's scope goes through the relation, in the page's own `where`.
   */
  condition: {
    /** How a row is tied to the parent: by a foreign key, or a relation to one or several. */
    kind: 'column' | 'is' | 'some'
    /** The foreign key column, or the relation field. */
    field: string
    /** With `column`: the target's relation field to the parent. */
    relation?: string | undefined
  }
  /**
   * The target's to-one relation back to the parent (`publisher` under
   * `/publishers/:id/catalogue`): its filters and orders are left out of the sub-collection.
   */
  relation?: string | undefined
}

/**
 * A model's table and the column of each of its scalar fields, for SQL about them the runtime
 * writes itself (the change feed's comparisons of text: docs/syncing.md#rules-on-the-feed).
 */
export interface ModelColumns {
  /** The table. */
  table: TableName
  /** Each scalar field's column, by field. */
  columns: Readonly<Record<string, string>>
}

/** A model's table: its mapped name (`@@map`) and its schema (`@@schema`, multi-schema only). */
export interface TableName {
  /** The table's name in the database. */
  name: string
  /** Its schema, with `@@schema`; null otherwise. */
  schema: string | null
}
