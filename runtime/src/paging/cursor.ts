/**
 * Cursor (keyset) paging, DESIGN D4. The collection's order is a key of one or more fields, the
 * last of them unique together; a link carries the key of the last (or first) item of a page as
 * `field[lt]=…` / `field[gt]=…` parameters, read together as ONE position in that order, never as
 * independent filters. The query is a `where` on that position plus `take`, so its cost does not
 * grow with depth and a deleted row under the cursor changes nothing.
 */
import { isDecimal } from '../decimal.js'
import { badRequest } from '../errors.js'
import type { QueryMap, QueryValue } from '../iri/query-string.js'
import type { CollectionPage, CollectionSource, CursorKey, LinkTarget } from './types.js'

/** A position in the key order read from the request: "after" (forward) or "before" (backward). */
export interface CursorBound {
  /** Values of the first `values.length` key fields (a prefix of the key). */
  values: unknown[]
  /** The parameters' text, for links that repeat the position. */
  raw: string[]
  backward: boolean
  /** `lte`/`gte`: the position itself belongs to the page. */
  inclusive: boolean
}

const OPERATORS = ['lt', 'gt', 'lte', 'gte'] as const
type Operator = (typeof OPERATORS)[number]

const INT = /^-?[0-9]+$/
const FLOAT = /^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$/
const DECIMAL = /^-?[0-9]+(\.[0-9]+)?$/
const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):?(\d{2}))?)?$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const INT32 = 2 ** 31
const INT64 = 2n ** 63n

/** The operator that moves forward through a key field, and the one that moves back. */
function operatorFor(key: CursorKey, backward: boolean, inclusive: boolean): Operator {
  const lower = (key.direction === 'desc') !== backward
  return `${lower ? 'lt' : 'gt'}${inclusive ? 'e' : ''}` as Operator
}

/** Reads a link value as the field's type; a malformed one is a 400 naming the parameter. */
export function parseCursorValue(key: CursorKey, raw: string, parameter: string): unknown {
  const fail = (expected: string) =>
    badRequest(`The "${parameter}" parameter must be ${expected}, "${raw}" given.`)
  switch (key.type) {
    case 'Int': {
      if (!INT.test(raw)) throw fail('an integer')
      const value = Number(raw)
      if (value < -INT32 || value >= INT32) throw fail('a 32-bit integer')
      return value
    }
    case 'BigInt': {
      if (!INT.test(raw)) throw fail('an integer')
      const value = BigInt(raw)
      if (value < -INT64 || value >= INT64) throw fail('a 64-bit integer')
      return value
    }
    case 'Float': {
      const value = Number(raw)
      if (!FLOAT.test(raw) || !Number.isFinite(value)) throw fail('a number')
      return value
    }
    case 'Decimal':
      if (!DECIMAL.test(raw)) throw fail('a decimal number')
      return raw
    case 'DateTime': {
      const value = readDate(raw)
      if (!value) throw fail('an ISO 8601 date-time such as 2024-01-31T12:00:00Z')
      return value
    }
    default:
      if (key.uuid && !UUID.test(raw)) throw fail('a UUID')
      return raw
  }
}

/** An ISO 8601 date or date-time whose every part exists (no 30 February, no hour 24). */
function readDate(raw: string): Date | undefined {
  const match = ISO_DATE.exec(raw)
  if (!match) return undefined
  const [
    ,
    year,
    month,
    day,
    hour = '0',
    minute = '0',
    second = '0',
    offsetHour = '0',
    offsetMinute = '0',
  ] = match
  const days = new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate()
  const valid =
    Number(month) >= 1 &&
    Number(month) <= 12 &&
    Number(day) >= 1 &&
    Number(day) <= days &&
    Number(hour) <= 23 &&
    Number(minute) <= 59 &&
    Number(second) <= 59 &&
    Number(offsetHour) <= 23 &&
    Number(offsetMinute) <= 59
  // A date-time without an offset is UTC, whatever the server's time zone.
  const value = new Date(
    match[4] !== undefined && !/(Z|[+-]\d{2}:?\d{2})$/.test(raw) ? `${raw}Z` : raw
  )
  return valid && !Number.isNaN(value.getTime()) ? value : undefined
}

/** Writes a row's key value into a link. */
export function formatCursorValue(value: unknown): string {
  if (value instanceof Date) return value.toISOString()
  return isDecimal(value) ? value.toFixed() : String(value)
}

/**
 * Reads the cursor parameters of a request: none (the first page), or a position. The fields given
 * must be a prefix of the key, each with one operator, all pointing the same way.
 */
export function readCursorBound(query: QueryMap, keys: readonly CursorKey[]): CursorBound | null {
  const bound: CursorBound = { values: [], raw: [], backward: false, inclusive: false }
  let ended: string | undefined
  const directions = new Set<boolean>()
  for (const key of keys) {
    const given = query.get(key.field)
    if (given === undefined) {
      ended ??= key.field
      continue
    }
    if (ended) {
      throw badRequest(
        `The "${key.field}" cursor parameter needs "${ended}" too: cursor fields are read together, in the order ${keys.map((k) => k.field).join(', ')}.`
      )
    }
    const [operator, raw] = singleBound(key.field, given)
    const parameter = `${key.field}[${operator}]`
    const inclusive = operator.endsWith('e')
    if (bound.inclusive) {
      throw badRequest(`Only the last cursor field may use an inclusive bound ([lte] or [gte]).`)
    }
    const backward = operatorFor(key, false, inclusive) !== operator
    directions.add(backward)
    bound.values.push(parseCursorValue(key, raw, parameter))
    bound.raw.push(raw)
    bound.backward = backward
    bound.inclusive = inclusive
  }
  if (bound.values.length === 0) return null
  if (directions.size > 1) {
    const forward = keys
      .map((key) => `${key.field}[${operatorFor(key, false, false)}]`)
      .join(' and ')
    throw badRequest(
      `The cursor parameters must all point the same way: ${forward} for the next items, the opposite operators for the previous ones.`
    )
  }
  return bound
}

function singleBound(field: string, given: QueryValue): [Operator, string] {
  const usage = `The "${field}" parameter is a cursor: give it as ${field}[lt]=…, ${field}[gt]=…, ${field}[lte]=… or ${field}[gte]=…, once.`
  if (typeof given === 'string' || given.size !== 1) throw badRequest(usage)
  const [entry] = given
  if (!entry) throw badRequest(usage)
  const [operator, raw] = entry
  if (!(OPERATORS as readonly string[]).includes(operator) || typeof raw !== 'string') {
    throw badRequest(usage)
  }
  return [operator as Operator, raw]
}

/**
 * The Prisma `where` for the rows strictly after (or, backward, before) a position in the key
 * order: a lexicographic comparison, led by a range on the first field so that an index on the
 * key can seek to the position instead of scanning to it.
 */
export function keysetWhere(
  keys: readonly CursorKey[],
  values: readonly unknown[],
  backward: boolean,
  inclusive: boolean
): Record<string, unknown> {
  const first = keys[0] as CursorKey
  if (values.length === 1)
    return { [first.field]: { [operatorFor(first, backward, inclusive)]: values[0] } }
  const branches: Record<string, unknown>[] = values.map((value, index) => {
    const branch: Record<string, unknown> = {}
    for (let previous = 0; previous < index; previous++) {
      branch[(keys[previous] as CursorKey).field] = values[previous]
    }
    branch[(keys[index] as CursorKey).field] = {
      [operatorFor(keys[index] as CursorKey, backward, false)]: value,
    }
    return branch
  })
  if (inclusive) {
    branches.push(
      Object.fromEntries(values.map((value, index) => [(keys[index] as CursorKey).field, value]))
    )
  }
  const leading = { [first.field]: { [operatorFor(first, backward, true)]: values[0] } }
  return { AND: [leading, { OR: branches }] }
}

/** A link to the page after (or before) a position, as overrides of the request's parameters. */
function linkFrom(
  keys: readonly CursorKey[],
  raw: readonly string[],
  backward: boolean,
  inclusive: boolean
): LinkTarget {
  const overrides = raw.map((value, index) => {
    const key = keys[index] as CursorKey
    const last = index === raw.length - 1
    const operator = operatorFor(key, backward, inclusive && last)
    return [key.field, new Map<string, QueryValue>([[operator, value]])] as const
  })
  return { overrides }
}

function keyOf(keys: readonly CursorKey[], row: object): string[] {
  return keys.map((key) => formatCursorValue((row as Record<string, unknown>)[key.field]))
}

/** Whether a row's key is exactly the position (the values as read from the link). */
function isAt(keys: readonly CursorKey[], row: object, values: readonly unknown[]): boolean {
  return keys.every((key, index) => {
    const actual = (row as Record<string, unknown>)[key.field]
    const expected = values[index]
    if (actual instanceof Date && expected instanceof Date)
      return actual.getTime() === expected.getTime()
    if (isDecimal(actual) && typeof (actual as { eq?: unknown }).eq === 'function') {
      return (actual as unknown as { eq(value: unknown): boolean }).eq(expected)
    }
    return actual === expected
  })
}

/**
 * Fetches one cursor page. `next` appears only when a row follows the page and `previous` only
 * when one precedes it (D4). Following a link (a whole key, exclusive) costs one query: it reads
 * from the position inclusively, and the row at the position, when it is still there, is the
 * proof that a row precedes the page. Otherwise one row on the other side of the position is
 * looked up.
 */
export async function fetchCursorPage<Row extends object, Where>(
  source: CollectionSource<Row, Where>,
  keys: readonly CursorKey[],
  itemsPerPage: number,
  bound: CursorBound | null
): Promise<CollectionPage<Row>> {
  const page: CollectionPage<Row> = { items: [], paginated: true, self: {} }
  if (itemsPerPage === 0) return page
  const backward = bound?.backward ?? false
  const where = (values: readonly unknown[], towardsBack: boolean, inclusive: boolean) =>
    keysetWhere(keys, values, towardsBack, inclusive) as Where

  let rows: Row[]
  let behind: boolean
  if (!bound) {
    rows = await source.findMany({ take: itemsPerPage + 1, backward })
    behind = false
  } else {
    const wholeKey = !bound.inclusive && bound.values.length === keys.length
    const read = await source.findMany({
      take: itemsPerPage + (wholeKey ? 2 : 1),
      backward,
      where: where(bound.values, backward, bound.inclusive || wholeKey),
    })
    const head = read[0]
    if (wholeKey && head && isAt(keys, head, bound.values)) {
      rows = read.slice(1)
      behind = true
    } else {
      rows = read
      const other = await source.findMany({
        take: 1,
        backward: !backward,
        where: where(bound.values, !backward, !bound.inclusive),
      })
      behind = other.length > 0
    }
  }
  const more = rows.length > itemsPerPage
  const items = rows.slice(0, itemsPerPage)
  if (backward) items.reverse()
  page.items = items
  const hasNext = backward ? behind : more
  const hasPrevious = backward ? more : behind
  const first = items[0]
  const last = items[items.length - 1]
  if (first && last) {
    if (hasNext) page.next = linkFrom(keys, keyOf(keys, last), false, false)
    if (hasPrevious) page.previous = linkFrom(keys, keyOf(keys, first), true, false)
  } else if (bound) {
    // An empty page past either end: link back across the position it was asked from.
    const link = linkFrom(keys, bound.raw, !backward, !bound.inclusive)
    if (backward ? hasNext : hasPrevious) page[backward ? 'next' : 'previous'] = link
  }
  return page
}
