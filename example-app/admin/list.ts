/**
 * A resource's list page: API Platform's guessed list (columns, sortable headers and filter inputs
 * from the documentation and `hydra:search`), paged as the collection pages (see paging.ts), and
 * offering only what the API supports: no bulk delete unless the documentation has a DELETE
 * operation (create and edit buttons follow the operations already), no export (react-admin's
 * exports one page of 1,000 rows, which a server capping its page size would cut short).
 */

import { ListGuesser } from '@api-platform/admin'
import type { Resource } from '@api-platform/api-doc-parser'
import { createElement, useEffect, useState } from 'react'
import { Loading, Pagination } from 'react-admin'
import { type Paging, pagingOf } from './paging.js'

export interface ReadOnlyListProps {
  /** The resource as api-doc-parser read it from the documentation; its collection is at `url`. */
  resource: Resource
}

/** The list page of `resource`. */
export function ReadOnlyList({ resource }: ReadOnlyListProps) {
  const [paging, setPaging] = useState<Paging>()
  const [error, setError] = useState<unknown>()
  useEffect(() => {
    pagingOf(resource.url).then(setPaging, setError)
  }, [resource.url])
  if (error) throw error
  if (!paging) return createElement(Loading)
  const canDelete = (resource.operations ?? []).some((operation) => operation.type === 'delete')
  return createElement(ListGuesser, {
    perPage: paging.perPage,
    pagination: paging.paged
      ? createElement(Pagination, { rowsPerPageOptions: paging.perPageChoices })
      : false,
    // No order parameter until a column header asks for one: the collection's own order.
    sort: { field: '', order: 'ASC' },
    exporter: false,
    ...(canDelete ? {} : { bulkActionButtons: false }),
  })
}
