/**
 * @module
 * The paging parameters of a collection as its IRI templates describe them: page, page size,
 * client switches and cursor positions, each with the property it sets.
 */
import type { CursorKey } from '../contract/order.js'
import type { PagingConfig } from '../contract/paging.js'
import { type DocumentedType, propertyId } from './documented-types.js'

/** A query parameter of a collection, as its IRI templates describe it. */
export interface Variable {
  variable: string
  /** The property it sets, as the documentation writes it (`hydra:pageIndex`, `#Book/title`). */
  property: string
  /**
   * The same property as a collection response writes it, resolved by the response's context:
   * a field's name (what API Platform writes, and what api-doc-parser matches to a field) or a
   * compact IRI.
   */
  term: string
  description: string
}

/** The paging parameters a collection accepts under its settings, in template order. */
export function pagingVariables(
  type: Pick<DocumentedType, 'name' | 'fields'>,
  paging: PagingConfig
): Variable[] {
  const { parameters } = paging
  const variables: Variable[] = []
  const size = `${paging.itemsPerPage} items per page`
  if (paging.enabled && paging.cursor) {
    variables.push(...cursorVariables(type, paging.cursor))
    // D7: page-based clients read numbered pages of the same order, at the cost of offset paging.
    variables.push({
      variable: parameters.page,
      property: 'hydra:pageIndex',
      term: 'hydra:pageIndex',
      description: `A numbered page of the same order, from 1 (${size}), with a count and first/last links: read by offset, so it costs more the deeper it is; without it, pages are read by cursor.`,
    })
  } else if (paging.enabled || paging.clientEnabled) {
    variables.push({
      variable: parameters.page,
      property: 'hydra:pageIndex',
      term: 'hydra:pageIndex',
      description: `The page to read, from 1 (default 1, ${size}).`,
    })
  }
  if (paging.clientItemsPerPage) {
    const maximum =
      paging.maximumItemsPerPage === null ? '' : `, at most ${paging.maximumItemsPerPage}`
    variables.push({
      variable: parameters.itemsPerPage,
      property: 'hydra:limit',
      term: 'hydra:limit',
      description: `Items per page (default ${paging.itemsPerPage}${maximum}).`,
    })
  }
  if (paging.clientEnabled) {
    variables.push({
      variable: parameters.enabled,
      property: '#pagination',
      term: 'pagination',
      description: `false: the whole collection in one response; true: paged (default ${paging.enabled}).`,
    })
  }
  if (paging.clientPartial && !paging.cursor) {
    variables.push({
      variable: parameters.partial,
      property: '#partial',
      term: 'partial',
      description: `true: no item count and no last page, a next link only when more items follow (default ${paging.partial}).`,
    })
  }
  return variables
}

/** Cursor positions: each key field with the operators that move forward and back. */
function cursorVariables(
  type: Pick<DocumentedType, 'name' | 'fields'>,
  cursor: readonly CursorKey[]
): Variable[] {
  return cursor.flatMap((key) => {
    const field = type.fields.find((candidate) => candidate.name === key.field)
    const property = field ? propertyId(type, field) : `#${type.name}/${key.field}`
    const [forward, back] = key.direction === 'desc' ? ['lt', 'gt'] : ['gt', 'lt']
    return [forward, back, `${forward}e`, `${back}e`].map((operator) => ({
      variable: `${key.field}[${operator}]`,
      term: key.field,
      property,
      description: `Cursor position on ${key.field} (${key.direction === 'desc' ? 'descending' : 'ascending'}): ${operator} reads the items ${operator.startsWith(forward) ? 'after' : 'before'} it in the collection's order.`,
    }))
  })
}
