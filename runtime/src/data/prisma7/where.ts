/**
 * @module
 * The `prisma` engine's writer: a plan's conditions (plan/condition.ts), order and read shape
 * (plan/read-shape.ts) as Prisma 7's `where`, `orderBy` and `select`, the conditions written so
 * that Prisma reads them the same in any position. Prisma reads
 * `{ OR: [] }` as no row at the top of a `where` and as the whole `where` of a relation's filter,
 * but as no condition once nested in `AND` (and `{ NOT: {} }` as every row): "no row" is written
 * only where it is read so, and a part holding for every row is left out.
 */

import type { OrderField } from '../../contract/order.js'
import { isDecimal } from '../../decimal.js'
import type { Condition, FieldTest } from '../../plan/condition.js'
import { pastCondition } from '../../plan/keyset.js'
import type { ReadShape } from '../../plan/read-shape.js'

/** A Prisma `where`. */
export type PrismaWhere = Record<string, unknown>

/** The `where` no row holds: Prisma reads it so at the top of a `where` and inside a relation's. */
export const NO_ROW: PrismaWhere = Object.freeze({ OR: [] })

/**
 * What Prisma 7's client says with values of its own: its `Prisma.AnyNull`, which a Json field's
 * null is compared with (the generated model source's and query spec's `jsonNull`), given where a
 * condition may test one.
 */
export interface PrismaTerms {
  /** The client's `Prisma.AnyNull`. */
  jsonNull?: unknown
}

/** No term of the client's: a `where` of conditions that test no Json field's null. */
const NO_TERMS: PrismaTerms = Object.freeze({})

/** `condition` as a `where`; undefined when it holds for every row. */
export function prismaWhere(
  condition: Condition | undefined,
  terms: PrismaTerms = NO_TERMS
): PrismaWhere | undefined {
  const written = write(condition, terms)
  return written === true ? undefined : written === false ? NO_ROW : written
}

/**
 * `condition` as a `where` the app's own code may nest anywhere (a custom data provider's, a scope
 * the app's routes read): "no row" is a test on the key field `key` (`{ id: { in: [] } }`), which
 * Prisma reads as no row in every position, where `{ OR: [] }` is every row once in an `AND`.
 * Without a key, as prismaWhere.
 */
export function nestableWhere(
  condition: Condition | undefined,
  key: string | undefined,
  terms?: PrismaTerms
): PrismaWhere | undefined {
  const where = prismaWhere(condition, terms)
  return where === NO_ROW && key !== undefined ? { [key]: { in: [] } } : where
}

/** A written level: a where, or a constant (every row, no row). */
type Written = PrismaWhere | boolean

function write(condition: Condition | undefined, terms: PrismaTerms): Written {
  if (condition === undefined) return true
  switch (condition.kind) {
    case 'never':
      return false
    case 'and':
      return writeAnd(condition.parts, terms)
    case 'or':
      return writeOr(condition.parts, terms)
    case 'not': {
      const part = write(condition.part, terms)
      return typeof part === 'boolean' ? !part : { NOT: part }
    }
    case 'field':
      return { [condition.field]: fieldFilter(condition.field, condition.test, terms) }
    case 'relation': {
      const { relation, quantifier } = condition
      if (condition.condition === undefined) {
        // A to-one's related row (`is` any), or none (`isNot` any), as Prisma says them.
        if (quantifier === 'is') return { [relation]: { isNot: null } }
        if (quantifier === 'isNot') return { [relation]: { is: null } }
        return { [relation]: { [quantifier]: {} } }
      }
      return { [relation]: { [quantifier]: relatedWhere(condition.condition, terms) } }
    }
    case 'past':
      return write(pastCondition(condition.past), terms)
  }
}

/** A related model's where inside a relation's filter, where Prisma reads `{}` and `{ OR: [] }` right. */
function relatedWhere(condition: Condition, terms: PrismaTerms): PrismaWhere {
  const written = write(condition, terms)
  return written === true ? {} : written === false ? { OR: [] } : written
}

/**
 * Every one of `parts`: the fields of parts on distinct fields in one object, as a where is
 * usually written (Prisma's work grows with the depth it walks), the others in its `AND`.
 */
function writeAnd(parts: readonly Condition[], terms: PrismaTerms): Written {
  const merged: PrismaWhere = {}
  const rest: PrismaWhere[] = []
  for (const part of parts) {
    const written = write(part, terms)
    if (written === false) return false
    if (written === true) continue
    if (!mergeInto(merged, written)) rest.push(written)
  }
  if (rest.length > 0) merged.AND = rest
  return Object.keys(merged).length === 0 ? true : merged
}

/**
 * Adds `written` to `merged` when none of its keys is there already, or is there as a field's
 * filter of other operators (`{ gte: 1 }` and `{ lte: 9 }`); false when it cannot be.
 */
function mergeInto(merged: PrismaWhere, written: PrismaWhere): boolean {
  const entries = Object.entries(written)
  // Two `NOT`s joined in one would be the negation of both together, not both negations.
  const fits = ([key, value]: [string, unknown]) =>
    key !== 'AND' &&
    (!Object.hasOwn(merged, key) ||
      (key !== 'NOT' &&
        key !== 'OR' &&
        isFilter(merged[key]) &&
        isFilter(value) &&
        Object.keys(value).every(
          (op) => op !== 'mode' && !Object.hasOwn(merged[key] as object, op)
        ) &&
        (merged[key] as PrismaWhere).mode === undefined))
  if (!entries.every(fits)) return false
  for (const [key, value] of entries)
    merged[key] = Object.hasOwn(merged, key)
      ? { ...(merged[key] as PrismaWhere), ...(value as PrismaWhere) }
      : value
  return true
}

/**
 * A field's filter of operators (`{ gte: 1 }`) or a relation's (`{ some: … }`), as the writer
 * writes them: other operators or quantifiers join it. Not a Json filter's (its `path` reads
 * every comparison beside it).
 */
function isFilter(value: unknown): value is PrismaWhere {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype &&
    !Object.hasOwn(value, 'path')
  )
}

function writeOr(parts: readonly Condition[], terms: PrismaTerms): Written {
  const branches: PrismaWhere[] = []
  for (const part of parts) {
    const written = write(part, terms)
    if (written === true) return true
    if (written !== false) branches.push(written)
  }
  if (branches.length === 0) return false
  return branches.length === 1 ? (branches[0] as PrismaWhere) : { OR: branches }
}

/**
 * A field's test as Prisma's filter of the field (or its value, for an equality). A Json field's
 * `not` takes a value, not a filter: its null is `{ equals: AnyNull }`, any other `{ not: AnyNull }`.
 */
function fieldFilter(field: string, test: FieldTest, terms: PrismaTerms): unknown {
  const mode = 'caseless' in test && test.caseless ? { mode: 'insensitive' } : {}
  switch (test.op) {
    case 'equals':
      if (test.caseless) return { equals: test.value, ...mode }
      return isScalar(test.value) ? test.value : { equals: test.value }
    case 'null':
      return null
    case 'in':
    case 'notIn':
      return { [test.op]: test.values, ...mode }
    case 'contains':
    case 'startsWith':
    case 'endsWith':
      return { [test.op]: test.pattern, ...mode }
    case 'jsonNull':
      return { equals: jsonNullOf(field, terms) }
    case 'not':
      if (test.test.op === 'jsonNull') return { not: jsonNullOf(field, terms) }
      return { not: fieldFilter(field, test.test, terms) }
    case 'opaque':
      return test.operators
    default:
      return { [test.op]: test.value, ...mode }
  }
}

function jsonNullOf(field: string, { jsonNull }: PrismaTerms): unknown {
  if (jsonNull === undefined)
    throw new TypeError(
      `The test of the Json field ${field}'s null needs the client's Prisma.AnyNull (the model source's jsonNull): run \`prisma generate\` with this version of the generator.`
    )
  return jsonNull
}

/** A value Prisma takes as a field's equality written alone (`{ title: 'Dune' }`). */
function isScalar(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return value !== null
  return value instanceof Date || isDecimal(value) || value instanceof Uint8Array
}

/**
 * An order as an `orderBy` (reversed for the pages read backward). A field through to-one
 * relations (`author.name`, `book.author.name`; field names hold no dot) orders by the related
 * item's field.
 */
export function prismaOrderBy(order: readonly OrderField[], reverse = false): PrismaWhere[] {
  return order.map(({ field, direction }) => {
    const way = reverse ? (direction === 'asc' ? 'desc' : 'asc') : direction
    return field
      .split('.')
      .reduceRight<PrismaWhere | string>((inner, name) => ({ [name]: inner }), way) as PrismaWhere
  })
}

/** A Prisma `select`. */
export type PrismaSelect = Readonly<Record<string, unknown>>

/**
 * Each shape's `select`, written once: a model's own shape is one object for all its reads, and a
 * request's for its request.
 */
const selects = new WeakMap<ReadShape, PrismaSelect>()

/** `shape` as a `select`: each field `true`, each joined relation a nested `select` of its fields. */
export function prismaSelect(shape: ReadShape): PrismaSelect {
  let written = selects.get(shape)
  if (!written) {
    const select: Record<string, unknown> = {}
    for (const field of shape.fields) select[field] = true
    for (const { relation, fields } of shape.joined)
      select[relation] = { select: Object.fromEntries(fields.map((field) => [field, true])) }
    written = select
    selects.set(shape, written)
  }
  return written
}
