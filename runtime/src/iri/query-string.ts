/**
 * Query strings the way API Platform reads and writes them (docs/paging.md#parameter-parsing and
 * docs/paging.md#link-normal-form).
 *
 * Reading: `RequestParser::parseRequestParams` over the normalised query string, i.e. PHP
 * `parse_str` except that the top-level name is kept verbatim (no `.`/space to `_` mangling) and
 * `%5B`/`%5D` count as brackets. Writing: `http_build_query(..., '&', PHP_QUERY_RFC3986)` followed by
 * `IriHelper`'s collapse of numeric leaf indexes, with the top-level keys first sorted as Symfony's
 * `Request::getUri()` does (`ksort`).
 *
 * Everything here is pure and never throws on user input.
 */

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

const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n
const CANONICAL_INTEGER = /^(?:0|-?[1-9][0-9]*)$/
/** Characters C's `isspace()` accepts (space, \t, \n, \v, \f, \r). */
const C_SPACE = /^[ \t\n\v\f\r]$/

const utf8Decoder = new TextDecoder('utf-8', { ignoreBOM: true })

/**
 * PHP `urldecode`: `+` is a space, `%XX` (two hex digits, either case) is a byte, and anything
 * else, including a malformed escape such as `%zz` or a trailing `%`, is kept as it is. The bytes
 * are read as UTF-8 (raw non-ASCII characters in the input count as their UTF-8 bytes); an invalid
 * sequence becomes U+FFFD.
 */
export function urlDecode(input: string): string {
  if (!input.includes('%') && !input.includes('+')) return input
  const bytes = Buffer.from(input, 'utf8')
  const out = new Uint8Array(bytes.length)
  let length = 0
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] as number
    if (byte === 0x2b) {
      out[length++] = 0x20
      continue
    }
    if (byte === 0x25 && i + 2 < bytes.length) {
      const high = hexValue(bytes[i + 1] as number)
      const low = hexValue(bytes[i + 2] as number)
      if (high >= 0 && low >= 0) {
        out[length++] = high * 16 + low
        i += 2
        continue
      }
    }
    out[length++] = byte
  }
  return utf8Decoder.decode(out.subarray(0, length))
}

function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57
  return -1
}

const HEX = '0123456789ABCDEF'

/**
 * PHP `rawurlencode` (RFC 3986): `A-Z a-z 0-9 - _ . ~` are kept, every other UTF-8 byte becomes
 * `%XX` with upper-case hex. A lone surrogate is encoded as U+FFFD.
 */
export function rawUrlEncode(input: string): string {
  if (/^[A-Za-z0-9\-_.~]*$/.test(input)) return input
  let out = ''
  for (const byte of Buffer.from(input, 'utf8')) {
    if (
      (byte >= 0x41 && byte <= 0x5a) ||
      (byte >= 0x61 && byte <= 0x7a) ||
      (byte >= 0x30 && byte <= 0x39) ||
      byte === 0x2d ||
      byte === 0x5f ||
      byte === 0x2e ||
      byte === 0x7e
    ) {
      out += String.fromCharCode(byte)
    } else {
      out += `%${HEX[byte >> 4]}${HEX[byte & 15]}`
    }
  }
  return out
}

/** The PHP integer key a string array key turns into, if any (`'5'`, `'-3'`; not `'05'`, `'-0'`). */
function integerKey(key: string): bigint | undefined {
  if (!CANONICAL_INTEGER.test(key) || key.length > 20) return undefined
  const value = BigInt(key)
  return value >= INT64_MIN && value <= INT64_MAX ? value : undefined
}

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

/** An array key written as `%5B<digits>%5D` and not followed by another bracket (IriHelper). */
const INDEXED_LEAF_BRACKET = /%5B[0-9]+%5D(?!%5B)/g

function appendPairs(parts: string[], encodedKey: string, value: QueryValue): void {
  if (typeof value === 'string') {
    parts.push(`${encodedKey.replace(INDEXED_LEAF_BRACKET, '%5B%5D')}=${rawUrlEncode(value)}`)
    return
  }
  for (const [key, child] of value) {
    appendPairs(parts, `${encodedKey}%5B${rawUrlEncode(key)}%5D`, child)
  }
}

/**
 * Builds a query string like PHP `http_build_query($params, '', '&', PHP_QUERY_RFC3986)` followed by
 * API Platform's `IriHelper` leaf-index collapse (docs/paging.md#link-normal-form):
 *
 * - keys and values are {@link rawUrlEncode}d (`[ ] / : + # space` become `%5B %5D %2F %3A %2B %23
 *   %20`), nested keys are written `a%5Bb%5D=1`, an empty value gives `k=`, an empty array gives
 *   nothing (as in PHP);
 * - in each key, a numeric index not followed by another bracket becomes `%5B%5D`
 *   (`tags[1]=b&tags[0]=a` gives `tags%5B%5D=b&tags%5B%5D=a`, in that order) while other numeric
 *   indexes stay (`f[0][a]=1` gives `f%5B0%5D%5Ba%5D=1`, fix #8278 of v4.3.11).
 */
export function buildQuery(params: QueryMap): string {
  const parts: string[] = []
  for (const [key, value] of params) appendPairs(parts, rawUrlEncode(key), value)
  return parts.join('&')
}

const PHP_WHITESPACE = '[ \\t\\n\\r\\v\\f]*'
const NUMERIC_STRING = new RegExp(
  `^${PHP_WHITESPACE}[+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?${PHP_WHITESPACE}$`
)
const INTEGER_STRING = new RegExp(`^${PHP_WHITESPACE}[+-]?[0-9]+${PHP_WHITESPACE}$`)

function numericValue(key: string): bigint | number | undefined {
  if (!NUMERIC_STRING.test(key)) return undefined
  if (INTEGER_STRING.test(key)) {
    const value = BigInt(key.trim())
    if (value >= INT64_MIN && value <= INT64_MAX) return value
  }
  return Number(key.trim())
}

/**
 * Compares two top-level keys the way PHP 8 `ksort()` (SORT_REGULAR) does: two numeric keys
 * (integer keys, or numeric strings such as `'1.5'` or `'1e1'`) compare as numbers, anything else
 * compares byte by byte on the UTF-8 encoding (digits < upper case < `_` < lower case).
 */
export function compareQueryKeys(a: string, b: string): number {
  const left = numericValue(a)
  if (left !== undefined) {
    const right = numericValue(b)
    if (right !== undefined) {
      if (typeof left === 'bigint' && typeof right === 'bigint') {
        return left < right ? -1 : left > right ? 1 : 0
      }
      const difference = Number(left) - Number(right)
      return difference < 0 ? -1 : difference > 0 ? 1 : 0
    }
  }
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))
}

/**
 * A copy of `query` with its top-level keys sorted like Symfony's `Request::getUri()` (`ksort`, see
 * {@link compareQueryKeys}; the sort is stable). Nested arrays keep their order and are shared.
 */
export function sortQuery(query: QueryMap): QueryMap {
  if (query.size < 2) return new Map(query)
  return new Map([...query].sort(([a], [b]) => compareQueryKeys(a, b)))
}

export interface BuildIriOptions {
  /** The page parameter's name: always removed from `query`, and set to `page` when given. */
  pageParameterName: string
  /**
   * The page to link to, written last as a decimal integer (the reference writes `1.0E+14` from
   * 10^14 on, which its own parser then refuses); absent for a link without a page (cursor links).
   */
  page?: number | undefined
  /**
   * Top-level parameters to set after the page parameter is removed (cursor links): an existing
   * key is replaced whole; `undefined` removes the key. The keys are then sorted again (D6).
   */
  overrides?: ReadonlyArray<readonly [string, QueryValue | undefined]> | undefined
}

/**
 * Builds a view IRI like `IriHelper::parseIri` + `createIri` over Symfony's normalised request URI
 * (docs/paging.md#link-normal-form): the top-level keys of `query` are sorted ({@link sortQuery}),
 * the page parameter is removed, `overrides` are applied, the keys sorted again (docs/paging.md#d6:
 * the reference merges them in place), then the page (if any) is set, which puts it last. Gives
 * `path?query`, or `path` alone when the query string is empty. `path` must not contain a query
 * itself.
 */
export function buildIri(path: string, query: QueryMap, options: BuildIriOptions): string {
  return iriBuilder(path, query, options.pageParameterName)(options)
}

/**
 * {@link buildIri} for several links of one request: the query is sorted and written once, so a
 * link that only sets the page (every link of offset paging) is that text and the page.
 */
export function iriBuilder(
  path: string,
  query: QueryMap,
  pageParameterName: string
): (target: Omit<BuildIriOptions, 'pageParameterName'>) => string {
  const params = sortQuery(query)
  params.delete(pageParameterName)
  let rest: string | undefined
  let pageKey: string | undefined
  return ({ page, overrides }) => {
    if (overrides !== undefined && overrides.length > 0) {
      const merged = new Map(params)
      for (const [key, value] of overrides) {
        if (value === undefined) merged.delete(key)
        else merged.set(key, value)
      }
      // D6: the reference merges cursor parameters in place, so its links differ from the `@id`
      // of the page they lead to (whose keys are sorted); sorted again, the link is that `@id`.
      const changed = sortQuery(merged)
      if (page !== undefined) {
        changed.delete(pageParameterName)
        changed.set(pageParameterName, String(page))
      }
      const queryString = buildQuery(changed)
      return queryString === '' ? path : `${path}?${queryString}`
    }
    rest ??= buildQuery(params)
    if (page === undefined) return rest === '' ? path : `${path}?${rest}`
    pageKey ??= buildQuery(new Map([[pageParameterName, '']]))
    const pair = `${pageKey}${String(page)}`
    return rest === '' ? `${path}?${pair}` : `${path}?${rest}&${pair}`
  }
}

/**
 * Reads a top-level parameter: `undefined` when absent, the string when sent once as a scalar, and
 * the {@link QueryMap} when it was sent as an array or nested (`page[]=5`), which callers reject.
 */
export function getParam(query: QueryMap, name: string): QueryValue | undefined {
  return query.get(name)
}
