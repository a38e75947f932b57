/**
 * Cursor (keyset) paging: docs/paging.md#d4 and docs/cursor-paging.md. The collection's order is a
 * key of one or more fields, the last of them unique together; a link carries the key of the last
 * (or first) item of a page as `field[lt]=…` / `field[gt]=…` parameters, read together as ONE
 * position in that order, never as independent filters. A request may name fewer fields: a prefix
 * of the key is the position past those values; other fields name the position of the first item,
 * in the collection's order, past the values given (`id[lt]=100` alone: the first item whose id is
 * below 100, the page starting there). The query is a `where` on that position
 * plus `take`, so its cost does not grow with depth and a deleted row under the cursor changes
 * nothing.
 */

import type { CursorKey } from '../contract/order.js'
import { rangesOf } from '../database/dialects.js'
import { isDecimal } from '../decimal.js'
import { badRequest } from '../errors.js'
import { isRepeated, type QueryMap, type QueryValue } from '../iri/query-string.js'
import { operatorFor } from '../plan/keyset-position.js'
import { readColumnValue } from '../values/column-value.js'
import { isoText } from '../values/iso-text.js'
import type { CollectionPage, CollectionSource, LinkTarget, RowWindow } from './types.js'

/** A position in the key order read from the request: "after" (forward) or "before" (backward). */
export interface CursorBound {
  /** The key fields the request gives, in the key's order: the whole key, a prefix, or others. */
  keys: CursorKey[]
  /** Their values. */
  values: unknown[]
  /** The parameters' text, for links that repeat the position. */
  raw: string[]
  backward: boolean
  /** `lte`/`gte`: the position itself belongs to the page. */
  inclusive: boolean
}

const OPERATORS = ['lt', 'gt', 'lte', 'gte'] as const
type Operator = (typeof OPERATORS)[number]

/**
 * Reads a link value as the field's type (the value rule shared with item ids and filters,
 * `readColumnValue`); a malformed value, or one the database cannot store, is a 400 naming the
 * parameter.
 */
export function parseCursorValue(
  key: CursorKey,
  raw: string,
  parameter: string,
  provider?: string | undefined
): unknown {
  const read = readColumnValue(key, raw, rangesOf(provider))
  if (!read.ok) {
    throw badRequest(`The "${parameter}" parameter must be ${read.expected}, "${raw}" given.`)
  }
  return read.value
}

/** Writes a row's key value into a link. */
export function formatCursorValue(value: unknown): string {
  if (value instanceof Date) return isoText(value)
  return isDecimal(value) ? value.toFixed() : String(value)
}

/**
 * Reads the cursor parameters of a request: none (the first page), or a position on the fields
 * given (any of the key's), each with one operator, all pointing the same way.
 */
export function readCursorBound(
  query: QueryMap,
  keys: readonly CursorKey[],
  filterOperators?: ReadonlyMap<string, readonly string[]>,
  provider?: string | undefined
): CursorBound | null {
  const bound: CursorBound = { keys: [], values: [], raw: [], backward: false, inclusive: false }
  const directions = new Set<boolean>()
  for (const key of keys) {
    const given = withoutFilterOperators(query.get(key.field), filterOperators?.get(key.field))
    if (given === undefined) continue
    const [operator, raw] = singleBound(key.field, given, isRepeated(query, key.field))
    const parameter = `${key.field}[${operator}]`
    const inclusive = operator.endsWith('e')
    if (bound.inclusive) {
      throw badRequest(`Only the last cursor field may use an inclusive bound ([lte] or [gte]).`)
    }
    const backward = operatorFor(key, false, inclusive) !== operator
    directions.add(backward)
    bound.keys.push(key)
    bound.values.push(parseCursorValue(key, raw, parameter, provider))
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

/**
 * A key field's parameter without the operators a filter of that field reads (a date filter's
 * `[after]`, docs/filters.md "Cursor paging"): undefined when nothing is left for the cursor.
 */
function withoutFilterOperators(
  given: QueryValue | undefined,
  operators: readonly string[] | undefined
): QueryValue | undefined {
  if (!operators || given === undefined || typeof given === 'string') return given
  const rest = new Map([...given].filter(([operator]) => !operators.includes(operator)))
  return rest.size === 0 ? undefined : rest
}

function singleBound(field: string, given: QueryValue, repeated: boolean): [Operator, string] {
  const usage = `The "${field}" parameter is a cursor: give it as ${field}[lt]=…, ${field}[gt]=…, ${field}[lte]=… or ${field}[gte]=…, once.`
  if (repeated || typeof given === 'string' || given.size !== 1) throw badRequest(usage)
  const [entry] = given
  if (!entry) throw badRequest(usage)
  const [operator, raw] = entry
  if (!(OPERATORS as readonly string[]).includes(operator) || typeof raw !== 'string') {
    throw badRequest(usage)
  }
  return [operator as Operator, raw]
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

/** Whether a value compares itself with another (a Decimal's `eq`). */
function comparesItself(value: object): value is { eq(other: unknown): boolean } {
  return 'eq' in value && typeof value.eq === 'function'
}

/** Whether a row's key is exactly the position (the values as read from the link). */
function isAt(keys: readonly CursorKey[], row: object, values: readonly unknown[]): boolean {
  return keys.every((key, index) => {
    const actual = (row as Record<string, unknown>)[key.field]
    const expected = values[index]
    if (actual instanceof Date && expected instanceof Date)
      return actual.getTime() === expected.getTime()
    if (isDecimal(actual) && comparesItself(actual)) return actual.eq(expected)
    return actual === expected
  })
}

/**
 * Fetches one cursor page. `next` appears only when a row follows the page and `previous` only when
 * one precedes it (docs/paging.md#d4). Following a link (a whole key, exclusive) costs one query:
 * it reads from the position inclusively, and the row at the position, when it is still there, is
 * the proof that a row precedes the page. Otherwise one row on the other side of the position is
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
  const past = (
    keys: readonly CursorKey[],
    values: readonly unknown[],
    backward: boolean,
    inclusive: boolean
  ): RowWindow<Where> => ({ past: { keys, values, backward, inclusive } })

  if (bound && !bound.keys.every((key, index) => key === keys[index])) {
    // Fields other than a prefix of the key mark no stretch of its order: the position is the
    // first item past them (in the direction asked), and the page starts there.
    const [start] = await source.findMany({
      take: 1,
      backward,
      ...past(bound.keys, bound.values, backward, bound.inclusive),
    })
    if (start) {
      const values = keys.map((key) => (start as Record<string, unknown>)[key.field])
      bound = { keys: [...keys], values, raw: keyOf(keys, start), backward, inclusive: true }
    }
  }
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
      ...past(bound.keys, bound.values, backward, bound.inclusive || wholeKey),
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
        ...past(bound.keys, bound.values, !backward, !bound.inclusive),
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
    const link = linkFrom(bound.keys, bound.raw, !backward, !bound.inclusive)
    if (backward ? hasNext : hasPrevious) page[backward ? 'next' : 'previous'] = link
  }
  return page
}
