/**
 * @module
 * Value tags (docs/caching.md#value-tags): a page whose rows all hold one field of their model
 * equal to a value (an exact filter, `/books?genre=FICTION`; a sub-collection's parent,
 * `/authors/3/books`; a scope `{ ownerId: 7 }`) is tagged with that value (`Book:genre=fiction`,
 * `Book:authorId=3`), and any other answer choosing rows of the model with `Book:any`. An insert
 * or a delete of a row whose values are known purges the value tags of its values and `Book:any`:
 * every page whose conditions the row meets, wherever the row stands in it and whatever its
 * total, and no page narrowed to other values (data/written-rows.ts, prisma8/statement-tags.ts).
 *
 * A value is tagged where equality is exact in every database the runtime serves: integers,
 * bigints, booleans, enums' values and, on PostgreSQL and SQLite, strings (MySQL's collations
 * compare text whatever its case, accents and trailing spaces), but those of a PostgreSQL native
 * type other than `text`, `varchar`, `char` and `uuid` (`inet`, `citext`: {@link exactFields}).
 * Strings are tagged lower-cased and without trailing spaces, on both sides, so that a column
 * comparing them whatever their padding (`char(n)`) or a `uuid` whatever their case purges too:
 * values that text equality tells apart and their tags do not are only purged together.
 *
 * Bounded, so that a page's tags stay within what CDNs take: a value whose text is longer than
 * {@link MAX_VALUE_TEXT} characters is not tagged, and a condition among more than
 * {@link MAX_VALUE_TAGS} values (`?id[]=1&id[]=2...`) does not narrow: the page takes the broader
 * `Book:any` instead.
 */
import { anyRowTag, valueTag } from '../contract/cache-tags.js'
import type { CompiledModel } from '../contract/model-source.js'
import type { Condition } from '../plan/condition.js'

/** The most value tags a page carries for one model; past it, `Book:any`. */
export const MAX_VALUE_TAGS = 16

/**
 * The most value tags of one model one purge names; past it, the model's tag (`Book`), which every
 * answer carrying one of them carries too: a transaction of many inserts then sends one tag a model
 * where it would send several a row, past what a CDN's purge call takes.
 */
export const MAX_PURGE_VALUE_TAGS = 32

/** The longest text of a value tagged (its URI-encoded text, in ASCII characters). */
export const MAX_VALUE_TEXT = 100

/** The Prisma types whose equality is not exact or whose values' text is not canonical. */
const INEXACT: ReadonlySet<string> = new Set(['Float', 'Decimal', 'DateTime', 'Json', 'Bytes'])

/** The providers whose text equality is byte for byte (where no column says otherwise). */
const EXACT_TEXT: ReadonlySet<string> = new Set(['postgresql', 'sqlite'])

/**
 * The native types of PostgreSQL whose equality is text equality: `inet` holds `10.0.0.1` equal to
 * `10.0.0.1/32`, `citext` compares by PostgreSQL's `lower()`, which differs from JavaScript's for
 * some characters (a final sigma): their values are not tagged.
 */
const TEXT_TYPES: ReadonlySet<string> = new Set(['Text', 'VarChar', 'Char', 'Uuid'])

/** Whether a String column of native type `native` (none: the default, `text`) is tagged. */
const exactText = (native: string | undefined) => native === undefined || TEXT_TYPES.has(native)

/**
 * The text of `value` in a value tag: an integer's, a bigint's or a boolean's, a string's lower-cased
 * without its trailing spaces and URI-encoded (no space nor comma, which separate tags); undefined for any other value, or one
 * longer than {@link MAX_VALUE_TEXT}.
 */
export function valueText(value: unknown): string | undefined {
  let text: string
  if (typeof value === 'string') {
    try {
      text = encodeURIComponent(value.toLowerCase().trimEnd())
    } catch {
      // A lone surrogate has no URI encoding: no tag.
      return undefined
    }
  } else if (
    typeof value === 'bigint' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isSafeInteger(value))
  )
    text = String(value)
  else return undefined
  return text.length <= MAX_VALUE_TEXT ? text : undefined
}

/** The Prisma types of scalar fields with many values (an enum has few, a boolean two). */
const MANY_VALUED: ReadonlySet<string> = new Set(['Int', 'BigInt', 'String'])

/**
 * The fields of a model a page may be tagged by the values of, each with how finely its values
 * part the rows (2: an integer or a string; 1: an enum; 0: a boolean), which a page narrowed by
 * several equalities is tagged by the finest of: its scalar fields of an exact type (integers,
 * booleans, enums, and strings where its provider compares them exactly), as the generated model
 * source's columns say; none when it has no compiled description.
 */
export function exactFields(source: {
  provider: string
  compiled?: Pick<CompiledModel, 'columns' | 'nativeTypes'> | undefined
}): Map<string, number> {
  const text = EXACT_TEXT.has(source.provider)
  const native = source.compiled?.nativeTypes ?? {}
  const fields = new Map<string, number>()
  for (const [field, [, type]] of Object.entries(source.compiled?.columns ?? {}))
    if (type === 'String' ? text && exactText(native[field]) : !INEXACT.has(type))
      fields.set(field, MANY_VALUED.has(type) ? 2 : type === 'Boolean' ? 0 : 1)
  return fields
}

/** The parts of the conjunction of `conditions`, `and`s flattened. */
function* conjunction(conditions: readonly (Condition | undefined)[]): Generator<Condition> {
  for (const condition of conditions) {
    if (condition?.kind === 'and') yield* conjunction(condition.parts)
    else if (condition !== undefined) yield condition
  }
}

/** The value tags of one part of a page's conditions, where it is an equality of `exact` fields. */
function partTags(
  model: string,
  part: Condition,
  exact: ReadonlyMap<string, number>
): string[] | undefined {
  if (part.kind !== 'field' || !exact.has(part.field)) return undefined
  const { test } = part
  const values =
    test.op === 'equals' && !test.caseless
      ? [test.value]
      : test.op === 'in' && !test.caseless
        ? test.values
        : undefined
  if (!values || values.length === 0 || values.length > MAX_VALUE_TAGS) return undefined
  const tags = new Set<string>()
  for (const value of values) {
    const text = valueText(value)
    if (text === undefined) return undefined
    tags.add(valueTag(model, part.field, text))
  }
  return [...tags]
}

/**
 * The value tags of a page of `model` whose rows hold every one of `conditions` (its filters, its
 * parent's condition, the caller's scope): those of the equality among them naming the fewest
 * values, of the finest field among those (`exact`'s rank: `authorId` before `genre`), of the
 * first among those; undefined when none narrows the page (it is tagged `Book:any`).
 */
export function selectionValueTags(
  model: string,
  conditions: readonly (Condition | undefined)[],
  exact: ReadonlyMap<string, number>
): string[] | undefined {
  let best: { tags: string[]; rank: number } | undefined
  for (const part of conjunction(conditions)) {
    const tags = partTags(model, part, exact)
    if (!tags || part.kind !== 'field') continue
    const rank = exact.get(part.field) ?? 0
    const finer =
      !best ||
      tags.length < best.tags.length ||
      (tags.length === best.tags.length && rank > best.rank)
    if (finer) best = { tags, rank }
  }
  return best?.tags
}

/**
 * What an insert or a delete of `row`, a row of `model` holding every one of `scalars` (its scalar
 * fields), purges of the pages choosing rows of `model`: `Book:any` and the value tag of each of its
 * values of the fields pages are tagged by (`tagged`: exactFields' of its model); undefined when
 * the row lacks one of them (a `select` left it out).
 */
export function rowValueTags(
  model: string,
  row: unknown,
  scalars: ReadonlySet<string>,
  tagged: ReadonlySet<string>
): string[] | undefined {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) return undefined
  const values = row as Record<string, unknown>
  const tags = [anyRowTag(model)]
  for (const field of scalars) {
    if (!(field in values)) return undefined
    if (!tagged.has(field)) continue
    const text = valueText(values[field])
    if (text !== undefined) tags.push(valueTag(model, field, text))
  }
  return tags
}

/** A value tag's model (`Book` of `Book:authorId=3`; its value's text is URI-encoded: no `=`). */
const VALUE_TAG = /^([^/.:]+):[^=/]+=[^=]*$/

/**
 * `tags` as a purge sends them: those of a model naming more than `max` values
 * ({@link MAX_PURGE_VALUE_TAGS}) replaced, with its `Book:any`, by its model tag `Book`, which
 * every answer carrying a value or any-row tag of it carries (hono/response/cache-tags.ts).
 */
export function coarseValueTags(tags: readonly string[], max = MAX_PURGE_VALUE_TAGS): string[] {
  const counts = new Map<string, number>()
  for (const tag of tags) {
    const model = VALUE_TAG.exec(tag)?.[1]
    if (model !== undefined) counts.set(model, (counts.get(model) ?? 0) + 1)
  }
  const coarse = new Set([...counts].filter(([, count]) => count > max).map(([model]) => model))
  if (coarse.size === 0) return [...tags]
  const out = new Set<string>()
  for (const tag of tags) {
    const model = VALUE_TAG.exec(tag)?.[1] ?? (tag.endsWith(':any') ? tag.slice(0, -4) : undefined)
    out.add(model !== undefined && coarse.has(model) ? model : tag)
  }
  return [...out]
}
