/**
 * The index a substring search through a relation cannot have (docs/filters.md#indexes): `partial`,
 * `end` and `word_start` (and their `i` forms) are LIKE patterns starting with `%`, which no B-tree
 * index serves on any database. Through a relation, each request then reads the related column of
 * every row it considers and its count of every row, which on a long text column can take the
 * whole request's budget. Only PostgreSQL has an index for them: a trigram index (`pg_trgm`).
 */
import type { DMMF } from '@prisma/generator-helper'
import type { Report } from '../../problems.js'

/** The strategies whose LIKE pattern starts with `%`. */
const SUBSTRING = new Set(['partial', 'end', 'word_start', 'ipartial', 'iend', 'iword_start'])

/** The native types of a column declared to hold long text (MySQL's and PostgreSQL's). */
const LONG_TEXT = new Set(['Text', 'MediumText', 'LongText'])

/** A search through a relation, as its filter reads it. */
export interface RelatedSearch {
  /** As written: `author.bio`. */
  name: string
  /** The annotation it is written in (`@filter`, `@filter(operation: "feed")`). */
  source: string
  strategy: string
  /** The model of the searched column, and the column's field. */
  target: string
  field: string
}

/** The long text type `field` is declared with (`@db.Text`), or undefined. */
function longText(field: DMMF.Field): string | undefined {
  const [type, args] = field.nativeType ?? []
  if (type === undefined) return undefined
  // PostgreSQL's `varchar` without a length holds any length, as `text` does.
  if (LONG_TEXT.has(type) || (type === 'VarChar' && (args ?? []).length === 0)) return `@db.${type}`
  return undefined
}

/** Whether `model` has a trigram index (GIN or GiST, `pg_trgm`'s operator class) on `field`. */
function hasTrigramIndex(datamodel: Pick<DMMF.Datamodel, 'indexes'>, model: string, field: string) {
  return (datamodel.indexes ?? []).some(
    (index) =>
      index.model === model &&
      index.fields.some(
        (indexed) => indexed.name === field && /_trgm_ops$/.test(indexed.operatorClass ?? '')
      )
  )
}

/**
 * Warns when `search` looks for a substring of a long text column (declared `@db.Text`,
 * `@db.MediumText`, `@db.LongText`, or PostgreSQL's `@db.VarChar` without a length) through a
 * relation on PostgreSQL, MySQL or MariaDB, unless PostgreSQL has a trigram index on it. SQLite
 * declares no column types, so its columns are never known to be long.
 */
export function checkSubstringIndex(
  search: RelatedSearch,
  datamodel: Pick<DMMF.Datamodel, 'models' | 'indexes'>,
  provider: string,
  report: Report
): void {
  if (!SUBSTRING.has(search.strategy)) return
  const { target, field: name } = search
  const field = datamodel.models
    .find((model) => model.name === target)
    ?.fields.find((candidate) => candidate.name === name)
  const declared = field && longText(field)
  if (!declared) return
  const postgres = provider === 'postgresql'
  if (!postgres && provider !== 'mysql') return
  if (postgres && hasTrigramIndex(datamodel, target, name)) return
  const instead = postgres
    ? `add a trigram index to ${target} (@@index([${name}(ops: raw("gin_trgm_ops"))], type: Gin), with the pg_trgm extension), or search it with "start" (an index with text_pattern_ops) or "exact"`
    : `no index serves it on MySQL or MariaDB: search it with "start" or "exact", which an index on its first characters serves (@@index([${name}(length: 100)]))`
  report({
    severity: 'warning',
    source: search.source,
    option: 'search',
    message: `field "${search.name}" (${search.strategy}) reads ${target}.${name}, a long text column (${declared}), through a relation: no B-tree index serves a search for text inside it, so each request reads the ${name} of every related row it considers, and its count of every row; ${instead} (docs/filters.md#indexes)`,
  })
}
