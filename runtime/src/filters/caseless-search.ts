/**
 * @module
 * An operation whose text filters match whatever the case: each search filter of a String field
 * read with its case-insensitive strategy (`partial` as `ipartial`, `exact` as `iexact`), as
 * docs/filters.md#case-sensitivity serves them on SQLite, PostgreSQL and MySQL/MariaDB. The MCP
 * endpoint's `search` reads collections so (docs/mcp.md#search-and-fetch): a person types a word
 * in any case, and PostgreSQL's `partial` compares case by case.
 */
import type { CollectionOperation } from '../contract/operations.js'
import type { FilterSpec, SearchStrategy } from '../contract/query.js'
import { dialectOf } from '../database/dialects.js'

/** Each case-sensitive strategy's case-insensitive one. */
const CASELESS: Partial<Record<SearchStrategy, SearchStrategy>> = {
  exact: 'iexact',
  partial: 'ipartial',
  start: 'istart',
  end: 'iend',
  word_start: 'iword_start',
}

/** A filter of text matched whatever the case; another as it is. */
function caselessFilter(filter: FilterSpec): FilterSpec {
  if (filter.kind !== 'search' || filter.type !== 'String' || filter.uuid) return filter
  // A relation or an item key searched by IRI names a row: no text to match.
  if (filter.relation !== undefined || filter.items !== undefined) return filter
  const strategy = CASELESS[filter.strategy]
  return strategy === undefined ? filter : { ...filter, strategy }
}

/** The operations already made caseless, each once. */
const made = new WeakMap<object, unknown>()

/**
 * `operation` with its text filters caseless, where its database serves the case-insensitive
 * strategies (not SQL Server, whose usual collations ignore case already); else `operation`.
 */
export function caselessOperation<
  O extends Pick<CollectionOperation<unknown>, 'query' | 'resource'>,
>(operation: O): O {
  const { query } = operation
  const provider = operation.resource.provider
  if (!query || provider === undefined || dialectOf(provider).caseless === undefined)
    return operation
  let caseless = made.get(operation) as O | undefined
  if (caseless === undefined) {
    caseless = { ...operation, query: { ...query, filters: query.filters.map(caselessFilter) } }
    made.set(operation, caseless)
  }
  return caseless
}
