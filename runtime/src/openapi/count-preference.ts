/**
 * @module
 * `Prefer: count=…` in the OpenAPI document (docs/paging.md#client-totals): the header parameter
 * of a collection operation that lets clients choose their totals, and the `Preference-Applied`
 * header of its answers.
 */
import type { PagingConfig } from '../contract/paging.js'
import type { Parameter } from './parameters.js'

/** The preferences a client may send: one `count=…` per total the operation allows. */
const preferences = (paging: PagingConfig) =>
  (paging.clientTotals ?? []).map((mode) => `count=${mode}`)

/**
 * The `Prefer` header parameter of a collection whose totals clients may choose; undefined for
 * one whose totals are fixed (which ignores the header). Its values are those the operation
 * honours: any other preference, or one among others, is read as RFC 7240 reads it and ignored.
 */
export function preferParameter(paging: PagingConfig): Parameter | undefined {
  const values = preferences(paging)
  if (values.length === 0) return undefined
  return {
    name: 'Prefer',
    in: 'header',
    required: false,
    description:
      'The totals of the page (RFC 7240): count=exact counts, count=estimated and count=planned read the database’s estimate (PostgreSQL; an exact count elsewhere), count=none answers a partial page (no hydra:totalItems, no hydra:last).',
    schema: { type: 'string', enum: values },
  }
}

/**
 * The `Preference-Applied` header of a page whose totals clients may choose: the preference it
 * honours; undefined for a collection whose totals are fixed.
 */
export function preferenceAppliedHeader(paging: PagingConfig): Record<string, unknown> | undefined {
  const values = preferences(paging)
  if (values.length === 0) return undefined
  return {
    'Preference-Applied': {
      description: 'The count preference the page honours, when it honours the one asked for.',
      schema: { type: 'string', enum: values },
    },
  }
}
