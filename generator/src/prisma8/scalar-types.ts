/**
 * Prisma 7's scalar type of a Prisma 8 column, read from its codec (`pg/int4@1`,
 * `sql/varchar@1`), and its native type as Prisma 7's `@db.*` attribute names it: what the
 * generator reads of a field's type (its JSON and TypeScript types, filters, a decimal's scale, a
 * uuid key, a long text column).
 */
import type { ContractColumn } from './contract.js'

/** Prisma 7's scalar types: a field written with one of them and no arguments has no native type. */
export const PRISMA_SCALARS = new Set([
  'String',
  'Int',
  'BigInt',
  'Float',
  'Decimal',
  'Boolean',
  'DateTime',
  'Json',
  'Bytes',
])

/** The codec's name (`int4` of `pg/int4@1`) → the Prisma scalar type of its values. */
const BY_CODEC: Record<string, string> = {
  text: 'String',
  varchar: 'String',
  char: 'String',
  uuid: 'String',
  inet: 'String',
  bit: 'String',
  varbit: 'String',
  int2: 'Int',
  int4: 'Int',
  int: 'Int',
  int8number: 'Int',
  int8: 'BigInt',
  float4: 'Float',
  float8: 'Float',
  float: 'Float',
  numeric: 'Decimal',
  bool: 'Boolean',
  'timestamp-string': 'DateTime',
  'timestamp-temporal': 'DateTime',
  'timestamptz-string': 'DateTime',
  'timestamptz-temporal': 'DateTime',
  'timestamptz-date': 'DateTime',
  'date-string': 'DateTime',
  'date-temporal': 'DateTime',
  'time-string': 'DateTime',
  'time-temporal': 'DateTime',
  timetz: 'DateTime',
  json: 'Json',
  jsonb: 'Json',
  bytea: 'Bytes',
}

/** The Prisma scalar type of the codec `codecId`, or undefined when Prisma 7 has none. */
export function scalarTypeOf(codecId: string): string | undefined {
  const name = /^[^/]+\/([^@]+)@/.exec(codecId)?.[1]
  return name === undefined ? undefined : BY_CODEC[name]
}

/** PostgreSQL's type name → Prisma 7's `@db.*` name. */
const NATIVE: Record<string, string> = {
  text: 'Text',
  'character varying': 'VarChar',
  varchar: 'VarChar',
  character: 'Char',
  char: 'Char',
  bpchar: 'Char',
  uuid: 'Uuid',
  inet: 'Inet',
  bit: 'Bit',
  varbit: 'VarBit',
  'bit varying': 'VarBit',
  int2: 'SmallInt',
  int4: 'Integer',
  int8: 'BigInt',
  float4: 'Real',
  float8: 'DoublePrecision',
  numeric: 'Decimal',
  bool: 'Boolean',
  timestamp: 'Timestamp',
  timestamptz: 'Timestamptz',
  date: 'Date',
  time: 'Time',
  timetz: 'Timetz',
  json: 'Json',
  jsonb: 'JsonB',
  bytea: 'ByteA',
}

/** The arguments of a native type, in `@db.*`'s order, from the column's type parameters. */
const PARAMS = ['length', 'precision', 'scale']

/**
 * The DMMF's `nativeType` of a column: `['VarChar', ['20']]`, `['Decimal', ['10', '2']]`,
 * `['Uuid', []]`; null for a column of a Prisma scalar's default type, and for one Prisma 7 has
 * no name for.
 */
export function nativeTypeOf(column: ContractColumn): [string, string[]] | null {
  const name = NATIVE[column.nativeType]
  if (!name) return null
  const params = column.typeParams ?? {}
  const args = PARAMS.flatMap((key) => {
    const value = params[key]
    return typeof value === 'number' || typeof value === 'string' ? [String(value)] : []
  })
  return [name, args]
}
