/**
 * @module
 * Query strings the way API Platform reads them (docs/paging.md#parameter-parsing):
 * `RequestParser::parseRequestParams` over the normalised query string, i.e. PHP `parse_str`
 * except that the top-level name is kept verbatim (no `.`/space to `_` mangling) and `%5B`/`%5D`
 * count as brackets; what the reading dropped or overwrote is kept for the parameter checks.
 * Writing them back is iri-builder.ts.
 *
 * Everything here is pure and never throws on user input.
 */
import { INT64_MAX, integerKey } from './query-keys.js'
import { urlDecode } from './url-encoding.js'

/**
 * A parsed query value, as PHP `parse_str` gives it: a string, or an array (nested or sent with
 * `[]`). Arrays are always {@link QueryMap}s, lists included: `x[]=a&x[]=b` gives the keys `'0'`
 * and `'1'`.
 */
export type QueryValue = string | QueryMap

/**
 * An ordered map standing for a PHP array. Keys keep insertion order, like PHP's; a key that is
 * set again keeps its position (as in PHP). PHP integer keys are stored as their canonical decimal
 * string (`'0'`, `'-3'`), so `a[5]` and `a[05]` stay two different keys exactly as in PHP.
 */
export type QueryMap = Map<string, QueryValue>

/** PHP's `max_input_vars` default: `parse_str` stops after this many `name=value` pairs. */
export const MAX_INPUT_VARS = 1000

/** PHP's `max_input_nesting_level` default: a deeper name drops the whole top-level variable. */
export const MAX_INPUT_NESTING_LEVEL = 64

/** Characters C's `isspace()` accepts (space, \t, \n, \v, \f, \r). */
const C_SPACE = /^[ \t\n\v\f\r]$/

/** PHP's `nNextFreeElement` of each array built by {@link parseQuery} (undefined: no integer key yet). */
const nextFreeIndex = new WeakMap<QueryMap, bigint>()

function setEntry(table: QueryMap, key: string, value: QueryValue): void {
  table.set(key, value)
  const index = integerKey(key)
  if (index === undefined) return
  const next = nextFreeIndex.get(table)
  if (next === undefined || index >= next) {
    nextFreeIndex.set(table, index < INT64_MAX ? index + 1n : INT64_MAX)
  }
}

/** `$table[] = $value`; false when PHP would refuse it (the next index is taken at PHP_INT_MAX). */
function appendEntry(table: QueryMap, value: QueryValue): boolean {
  const key = String(nextFreeIndex.get(table) ?? 0n)
  if (table.has(key)) return false
  setEntry(table, key, value)
  return true
}

/**
 * Registers one decoded `name` / `value` pair like PHP's `php_register_variable_ex`, except that the
 * top-level name is kept verbatim (no leading-space trim, no `.`/space to `_`).
 */
function registerVariable(target: QueryMap, name: string, value: string): void {
  let open = name.indexOf('[')
  const base = open < 0 ? name : name.slice(0, open)
  if (base === '') return
  if (open < 0) {
    setEntry(target, base, value)
    return
  }

  let table = target
  // The key the next value or array goes to in `table`; null means "append" (`[]`).
  let index: string | null = base
  let level = 0
  for (;;) {
    if (++level > MAX_INPUT_NESTING_LEVEL) {
      target.delete(base)
      return
    }
    let position = open + 1
    const indexStart = position
    if (C_SPACE.test(name.charAt(position))) position++
    let nextIndex: string | null
    let close: number
    if (name.charAt(position) === ']') {
      nextIndex = null
      close = position
    } else {
      close = name.indexOf(']', position)
      if (close < 0) {
        if (level === 1) {
          // `a[b=1`: PHP would mangle this into `a_b` (and API Platform's parser into a hex string);
          // keep the name as sent instead.
          setEntry(target, name, value)
        } else if (index === null) {
          appendEntry(table, value)
        } else {
          // `a[b][c=1`: the unterminated part is dropped, the value goes to `a[b]`.
          setEntry(table, index, value)
        }
        return
      }
      nextIndex = name.slice(indexStart, close)
    }

    let child: QueryMap
    if (index === null) {
      child = new Map()
      if (!appendEntry(table, child)) return
    } else {
      const existing = table.get(index)
      if (existing instanceof Map) {
        child = existing
      } else {
        // A scalar (or nothing) there: PHP replaces it with an empty array, in place.
        child = new Map()
        setEntry(table, index, child)
      }
    }
    table = child
    index = nextIndex

    if (name.charAt(close + 1) === '[') {
      open = close + 1
      continue
    }
    // Anything after the last `]` that is not `[` is ignored (`a[b]c=1` sets `a[b]`).
    if (index === null) appendEntry(table, value)
    else setEntry(table, index, value)
    return
  }
}

/**
 * Parses a raw query string (without the leading `?`) the way the reference does
 * (docs/paging.md#parameter-parsing):
 *
 * - pairs are split on `&` (empty pairs skipped), then on the first `=`; a name without `=` gets
 *   `''`; names and values are `urldecode`d once (`+` is a space, malformed escapes such as `%zz`
 *   are kept as sent, never an error), and a name is cut at a NUL byte;
 * - the top-level name is kept verbatim: `a.b` stays `a.b`, `a b` stays `a b`;
 * - `[` and `]` (also sent as `%5B`/`%5D`, any case) nest as in PHP `parse_str`: `a[b][c]=1`,
 *   `x[]=1&x[]=2` (keys `'0'`, `'1'`, then the next free integer), `a[b]c=1` sets `a[b]`,
 *   `a[b][c=1` sets `a[b]`; an unterminated first bracket keeps the whole name (`a[b` stays `a[b`);
 * - the last value wins (`x=1&x=2` gives `'2'`, `x[]=1&x=2` gives `'2'`, `x=1&x[]=2` gives an
 *   array), and a key that is set again keeps its first position;
 * - empty names (`=1`, `[a]=1`) are skipped; like PHP, only the first {@link MAX_INPUT_VARS} pairs
 *   are read and a name nested deeper than {@link MAX_INPUT_NESTING_LEVEL} drops its variable.
 */
export function parseQuery(raw: string): QueryMap {
  const result: QueryMap = new Map()
  let count = 0
  /** Decoded names seen, to notice a name given twice (only when there are several pairs). */
  const names = raw.includes('&') ? new Set<string>() : undefined
  for (let pair of raw.split('&')) {
    if (pair === '' || pair.startsWith('=')) continue
    if (++count > MAX_INPUT_VARS) {
      noteOf(result).truncated = true
      break
    }
    const nul = pair.indexOf('\0')
    if (nul >= 0) pair = pair.slice(0, nul)
    const equals = pair.indexOf('=')
    let name = urlDecode(equals < 0 ? pair : pair.slice(0, equals))
    const value = equals < 0 ? '' : urlDecode(pair.slice(equals + 1))
    const nameNul = name.indexOf('\0')
    if (nameNul >= 0) name = name.slice(0, nameNul)
    if (names) noteRepeat(result, names, name)
    registerVariable(result, name, value)
  }
  return result
}

/** What reading a query string dropped or overwrote, for the checks of a request's parameters. */
interface QueryNote {
  /** More than {@link MAX_INPUT_VARS} pairs: the rest were not read. */
  truncated: boolean
  /** Top-level names of which a value overwrote another (`x=1&x=2`, `x=1&x[]=2`, `x[a]=1&x[a]=2`). */
  repeated: Set<string>
}

const notes = new WeakMap<QueryMap, QueryNote>()

function noteOf(query: QueryMap): QueryNote {
  let note = notes.get(query)
  if (!note) {
    note = { truncated: false, repeated: new Set() }
    notes.set(query, note)
  }
  return note
}

/** Records `name` as repeated when a value of it overwrites another one (`[]` appends: never). */
function noteRepeat(query: QueryMap, seen: Set<string>, name: string): void {
  const open = name.indexOf('[')
  const base = open < 0 ? name : name.slice(0, open)
  if (base === '') return
  // A plain name and a bracketed one of the same base overwrite each other: both count as `base`.
  const key = open < 0 ? name : name.endsWith('[]') ? undefined : name
  const shape = open < 0 ? `\0plain:${base}` : `\0bracket:${base}`
  const other = open < 0 ? `\0bracket:${base}` : `\0plain:${base}`
  if ((key !== undefined && seen.has(key)) || seen.has(other)) noteOf(query).repeated.add(base)
  if (key !== undefined) seen.add(key)
  seen.add(shape)
}

/** Whether {@link parseQuery} stopped at {@link MAX_INPUT_VARS} pairs and left the rest unread. */
export function isTruncated(query: QueryMap): boolean {
  return notes.get(query)?.truncated ?? false
}

/**
 * Whether a value of the top-level parameter `name` was overwritten by a later one in the query
 * string (`page=2&page=3`): the reference takes the last; a strict reader refuses it.
 */
export function isRepeated(query: QueryMap, name: string): boolean {
  return notes.get(query)?.repeated.has(name) ?? false
}

/**
 * Reads a top-level parameter: `undefined` when absent, the string when sent once as a scalar, and
 * the {@link QueryMap} when it was sent as an array or nested (`page[]=5`), which callers reject.
 */
export function getParam(query: QueryMap, name: string): QueryValue | undefined {
  return query.get(name)
}
