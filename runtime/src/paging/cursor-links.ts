/**
 * @module
 * What cursor links keep of a request besides the position they set.
 */
import type { QueryMap, QueryValue } from '../iri/query-string.js'
import type { CollectionPage, LinkTarget } from './types.js'

/** The operators of a cursor position (`id[lt]`). */
export const CURSOR_OPERATORS: ReadonlySet<string> = new Set(['lt', 'gt', 'lte', 'gte'])

/**
 * Cursor links set the key fields' parameters; a date filter on a key field shares its parameter
 * (`occurredAt[after]=…&occurredAt[lt]=…`), so each link keeps the request's other operators of
 * that field, written before the position.
 */
export function keepFilterOperators<T>(
  page: CollectionPage<T>,
  query: QueryMap
): CollectionPage<T> {
  const keep = (target: LinkTarget | undefined): LinkTarget | undefined => {
    if (!target?.overrides) return target
    const overrides = target.overrides.map(
      ([key, value]): readonly [string, QueryValue | undefined] => {
        const given = query.get(key)
        if (!(value instanceof Map) || !(given instanceof Map)) return [key, value]
        const kept = [...given].filter(([operator]) => !CURSOR_OPERATORS.has(operator))
        return [key, new Map([...kept, ...value])]
      }
    )
    return { ...target, overrides }
  }
  const next = keep(page.next)
  const previous = keep(page.previous)
  return { ...page, ...(next ? { next } : {}), ...(previous ? { previous } : {}) }
}
