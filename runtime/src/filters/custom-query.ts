/**
 * The filters and orders of a custom collection (docs/custom-collections.md#filters-and-order): a
 * custom handler declares them as the generator declares a generated operation's, the route reads
 * and checks the parameters (400s), writes `hydra:search`, and hands the parsed query to the
 * handler, which applies it.
 */
import type { PagingConfig } from '../contract/paging.js'
import type { FilterSpec, LikeEscape, OrderFieldSpec, QuerySpec } from '../contract/query.js'
import { defaultFilterParameterNames } from './spec.js'

/** What a custom collection lets clients filter and order by. */
export interface CustomQueryOptions {
  /** The filters, as `@filter` would declare them (`{ kind: 'range', field: 'books', type: 'Int' }`). */
  filters?: readonly FilterSpec[] | undefined
  /** The fields a client may order by (`order[books]=desc`). */
  order?: readonly OrderFieldSpec[] | undefined
  /**
   * A field that tells items apart: orderable, and ending every client order as a primary key
   * does. Left out, a client order is exactly the fields given.
   */
  id?: OrderFieldSpec | undefined
  /** The names of the `order` and `exists` parameters (API Platform's `order_parameter_name`...). */
  parameters?:
    | {
        /** The order parameter's name (default `order`). */
        order?: string | undefined
        /** The exists filter's parameter name (default `exists`). */
        exists?: string | undefined
      }
    | undefined
  /**
   * How the `where` handed to the handler escapes `%` and `_` in LIKE patterns, for a handler
   * that passes it to Prisma: `backslash` (PostgreSQL, MySQL; the default) or `brackets` (SQL
   * Server). SQLite's LIKE has none: `none` refuses search values holding them (a 400).
   */
  likeEscape?: LikeEscape | undefined
}

/**
 * The query spec of a custom collection, checked (a TypeError naming `who` when a parameter name
 * is empty or taken twice, by the paging parameters of `paging` too).
 */
export function customQuery(
  options: CustomQueryOptions,
  who = 'query',
  paging?: PagingConfig
): QuerySpec {
  const parameters = {
    order: options.parameters?.order ?? defaultFilterParameterNames.order,
    exists: options.parameters?.exists ?? defaultFilterParameterNames.exists,
  }
  const spec: QuerySpec = {
    filters: options.filters ?? [],
    order: options.order ?? [],
    ...(options.id ? { id: options.id } : {}),
    parameters,
    likeEscape: options.likeEscape ?? 'backslash',
  }
  const problems: string[] = []
  const fields = [...spec.filters, ...spec.order, ...(spec.id ? [spec.id] : [])].map(
    (entry) => entry.field
  )
  if ([...fields, parameters.order, parameters.exists].some((name) => name.trim() === ''))
    problems.push('field and parameter names must be non-empty strings')
  const taken = [...Object.values(paging?.parameters ?? {}), parameters.order, parameters.exists]
  const clash = taken.find((name, index) => taken.indexOf(name) !== index || fields.includes(name))
  if (clash !== undefined) problems.push(`the parameter name "${clash}" is taken twice`)
  if (problems.length > 0) throw new TypeError(`${who}: ${problems.join('; ')}.`)
  return spec
}
