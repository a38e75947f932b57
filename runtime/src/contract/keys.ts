/**
 * @module
 * The key naming a resource's items (docs/hydra.md#identifiers), as the generator describes it:
 * one field, or a composite key's fields, each with what narrows its values.
 */

/** The kinds of key an item IRI can be built from: Prisma scalar types, an enum, or several fields. */
export type IdKind =
  | 'Int'
  | 'BigInt'
  | 'Float'
  | 'Decimal'
  | 'DateTime'
  | 'String'
  | 'Enum'
  | 'Bytes'
  | 'Composite'

/** A composite key's value: each field's value by field name. */
export type CompositeKeyValue = { readonly [field: string]: unknown }

/**
 * The value of a key of kind `K`, as Prisma takes it in a `where`: a number, a bigint, a Date,
 * bytes, text, or a composite key's fields.
 */
export type IdValue<K extends IdKind> = K extends 'Int' | 'Float'
  ? number
  : K extends 'BigInt'
    ? bigint
    : K extends 'DateTime'
      ? Date
      : K extends 'Bytes'
        ? Uint8Array<ArrayBuffer>
        : K extends 'Composite'
          ? CompositeKeyValue
          : string

/** One field of a key: its name and kind, and what narrows its values. */
export interface KeyField {
  /** The field's name. */
  name: string
  /** The field's type. */
  kind: Exclude<IdKind, 'Composite'>
  /** A `@db.Uuid` String: only UUIDs name items. */
  uuid?: boolean | undefined
  /** An enum's values: no other text names an item. */
  values?: readonly string[] | undefined
}

/**
 * A resource's key. A single key is one field (`name` is the field); a composite key lists its
 * `fields`, and `name` is Prisma's name of the compound key in a `where` (`orderId_productId`).
 */
export interface KeySpec<K extends IdKind = IdKind> {
  /** The key field's name, or Prisma's name of a compound key. */
  name: string
  /** The key field's type, or `Composite`. */
  kind: K
  /** A `@db.Uuid` String: only UUIDs name items. */
  uuid?: boolean | undefined
  /** An enum's values: no other text names an item. */
  values?: readonly string[] | undefined
  /** A composite key's fields, in its order. */
  fields?: readonly KeyField[] | undefined
}

/** The fields of a key, one for a single key. */
export function keyFields(key: KeySpec): readonly KeyField[] {
  if (key.kind !== 'Composite') return [key as KeyField]
  if (!key.fields || key.fields.length === 0)
    throw new TypeError(`The composite key ${key.name} lists no fields.`)
  return key.fields
}
