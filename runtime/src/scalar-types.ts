/**
 * @module
 * What prisma-hydra does with each Prisma scalar type, in one table read by the generator (which
 * fields can order a collection or key a cursor, the TypeScript type of generated members) and by
 * the runtime (how a value is written to JSON, its range in the API documentation). An enum field
 * is not listed: it orders like a String, is written as its text, and cannot key a cursor.
 *
 * The table does not depend on the database. Limits that do (an Int is 32 bits, a BigInt 64, the
 * dates and texts a provider stores) are in the dialect table, database/dialects.ts.
 */

/** A JSON value: what a `Json` field is served as. */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | JsonValue[]
  | { [key: string]: JsonValue }

/** How a value read from the database is written to JSON when it is not already a JSON value. */
export type ScalarFormatter = 'dateTime' | 'integerText' | 'decimalText' | 'base64'

/** What is done with one Prisma scalar type: a row of {@link SCALAR_TYPES}. */
export interface ScalarType {
  /** Whether a collection can be ordered by a field of this type (`order`, `viaCursor`). */
  orderable: boolean
  /** Whether Prisma compares it with lt/gt, so it can key a cursor or an unpaged batch. */
  cursor: boolean
  /**
   * The TypeScript type of its value in a served member: a primitive, or the name of a type
   * generated modules import from the runtime.
   */
  tsType: 'string' | 'number' | 'boolean' | 'JsonValue'
  /** The property's range in the API documentation, as a compact IRI (`xsd:`, `rdf:`). */
  range: string
  /** How its value is written to JSON; none when the database value is already the JSON value. */
  formatter: ScalarFormatter | null
}

/** Every Prisma scalar type's row, by the type's name. */
export const SCALAR_TYPES = {
  /** Text, served as a JSON string. */
  String: { orderable: true, cursor: true, tsType: 'string', range: 'xsd:string', formatter: null },
  /** A 32-bit integer, served as a JSON number. */
  Int: { orderable: true, cursor: true, tsType: 'number', range: 'xsd:integer', formatter: null },
  /** A 64-bit integer, served as a decimal string: a JSON number loses digits past 2⁵³. */
  BigInt: {
    orderable: true,
    cursor: true,
    tsType: 'string',
    range: 'xsd:integer',
    formatter: 'integerText',
  },
  /** A double, served as a JSON number. */
  Float: { orderable: true, cursor: true, tsType: 'number', range: 'xsd:double', formatter: null },
  /** A decimal, served as a string of its digits, which a JSON number would round. */
  Decimal: {
    orderable: true,
    cursor: true,
    tsType: 'string',
    range: 'xsd:decimal',
    formatter: 'decimalText',
  },
  /** Served as `true` or `false`; it cannot key a cursor (two values do not order a collection). */
  Boolean: {
    orderable: true,
    cursor: false,
    tsType: 'boolean',
    range: 'xsd:boolean',
    formatter: null,
  },
  /** An instant, served as an ISO 8601 date-time in UTC. */
  DateTime: {
    orderable: true,
    cursor: true,
    tsType: 'string',
    range: 'xsd:dateTime',
    formatter: 'dateTime',
  },
  /** Any JSON value, served as it is; it neither orders nor keys a cursor. */
  Json: {
    orderable: false,
    cursor: false,
    tsType: 'JsonValue',
    range: 'rdf:JSON',
    formatter: null,
  },
  /** Bytes, served in base64; they neither order nor key a cursor. */
  Bytes: {
    orderable: false,
    cursor: false,
    tsType: 'string',
    range: 'xsd:base64Binary',
    formatter: 'base64',
  },
} as const satisfies Record<string, ScalarType>

/** The name of a Prisma scalar type: a key of {@link SCALAR_TYPES}. */
export type ScalarTypeName = keyof typeof SCALAR_TYPES

/** The row of a Prisma type, or undefined for an enum (or a type Prisma may add later). */
export function scalarType(name: string): ScalarType | undefined {
  return Object.hasOwn(SCALAR_TYPES, name) ? SCALAR_TYPES[name as ScalarTypeName] : undefined
}
