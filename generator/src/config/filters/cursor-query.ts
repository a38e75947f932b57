/**
 * What a cursor-paged operation accepts besides its cursor (docs/filters.md, Cursor paging): a
 * client order becomes its keyset, so every orderable field must be one a keyset can compare; and
 * the fields a position can name (`field[lt]=…`, `field[gt]=…`: the cursor's, the order's and the
 * key's) take no filter that reads those parameters. Each refusal names the declaration to change.
 */
import { type FilterSpec, KEYSET_TYPES, type OrderFieldSpec } from '@prisma-hydra/runtime/defaults'
import type { FilterContext } from './filter-fields.js'

/** One cursor-paged operation's query and where each of its parts is declared. */
export interface CursorQuery {
  operation: string
  /** The fields of its cursor (`viaCursor`, or its `@operation`'s order). */
  cursor: readonly string[]
  filters: readonly FilterSpec[]
  order: readonly OrderFieldSpec[]
  /** Whether its filters, and its order, are its own (`operation:`) rather than the model's. */
  own: { filters: boolean; order: boolean }
}

/** Reports the order fields no keyset can take and the filters that would read a position. */
export function checkCursorQuery(
  query: CursorQuery,
  keyset: ReadonlySet<string>,
  context: FilterContext
): void {
  const { operation } = query
  // Where the refused part is declared: the operation's own annotation, or the model's.
  const of = (annotation: string, own: boolean) =>
    own && operation !== 'collection' ? `${annotation} (operation "${operation}")` : annotation
  const orderSource = of('@order', query.own.order)
  for (const entry of query.order) {
    const field = context.fields.get(entry.field)
    const reason = entry.field.includes('.')
      ? "and Prisma's cursor cannot start past a related item's field; order it by its own fields (docs/filters.md, relations)"
      : !field?.isRequired || !KEYSET_TYPES.has(field.type)
        ? 'whose fields must be required String, Int, BigInt, Float, Decimal or DateTime fields'
        : undefined
    if (reason)
      context.report({
        source: orderSource,
        option: 'fields',
        message: `field "${entry.field}" cannot order the cursor-paged operation "${operation}": a client order becomes its keyset order, ${reason}`,
      })
  }
  const source = of('@filter', query.own.filters)
  for (const filter of query.filters) {
    if (filter.kind === 'date' || filter.kind === 'exists') continue
    const field =
      filter.kind === 'search' && filter.relation ? filter.relation.foreignKey : filter.field
    if (!keyset.has(filter.field) && !keyset.has(field)) continue
    context.report({
      source,
      option: filter.kind,
      message: `field "${filter.field}" can be part of the cursor key of "${operation}" (${why(field, query, context)}), whose positions are "${filter.field}[lt]=…"/"${filter.field}[gt]=…": a ${filter.kind} filter there would make one parameter mean two things; ${fixes(field, query, context).join(', or ')}`,
    })
  }
}

/** Why `field` can be part of the operation's keyset. */
function why(field: string, query: CursorQuery, context: FilterContext): string {
  const key = (context.keyFields ?? [context.idField]).map((candidate) => candidate.name)
  if (key.includes(field)) return "the model's key, which ends every keyset"
  if (query.cursor.includes(field)) return 'a field of its cursor'
  return `a field of its ${query.own.order ? 'own' : "model's"} @order, which a client order makes its keyset`
}

/** The declarations that would leave `field` unfiltered on the operation, or filtered by date. */
function fixes(field: string, query: CursorQuery, context: FilterContext): string[] {
  const { operation } = query
  const fixes = query.own.filters
    ? [`drop it from @filter(operation: "${operation}", ...)`]
    : [
        `drop it from @filter`,
        `give "${operation}" filters of its own without it: @filter(operation: "${operation}", ...)`,
      ]
  const key = (context.keyFields ?? [context.idField]).map((candidate) => candidate.name)
  if (!query.cursor.includes(field) && !key.includes(field))
    fixes.push(
      query.own.order
        ? `drop it from @order(operation: "${operation}", ...)`
        : `give "${operation}" an order of its own without it: @order(operation: "${operation}", fields: [...])`
    )
  if (context.fields.get(field)?.type === 'DateTime')
    fixes.push(`filter it by date (date: [${field}]), whose operators are no positions`)
  return fixes
}
