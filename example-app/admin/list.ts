/**
 * A resource's list page: API Platform's guessed list (columns and sortable headers from the
 * documentation and `hydra:search`), paged as the collection pages (see paging.ts), and offering
 * only what the API supports: no bulk delete unless the documentation has a DELETE operation
 * (create and edit buttons follow the operations already), no export (react-admin's exports one
 * page of 1,000 rows, which a server capping its page size would cut short).
 *
 * Its filter inputs are the admin's own guess (the search variables named like a field), but
 * optional: the admin's FilterGuesser marks the inputs of required fields required, so an input
 * emptied by hand is an error and the list stays filtered by its last value.
 */
import { hydraSchemaAnalyzer, InputGuesser, ListGuesser } from '@api-platform/admin'
import type { Resource } from '@api-platform/api-doc-parser'
import { createElement, useEffect, useState } from 'react'
import { Loading, Pagination } from 'react-admin'
import { type Paging, pagingOf } from './paging.js'

export interface ReadOnlyListProps {
  /** The resource as api-doc-parser read it from the documentation; its collection is at `url`. */
  resource: Resource
}

interface Filter {
  name: string
  isRequired: boolean
}

const schemaAnalyzer = hydraSchemaAnalyzer()

/** The list page of `resource`. */
export function ReadOnlyList({ resource }: ReadOnlyListProps) {
  const [setup, setSetup] = useState<{ paging: Paging; filters: Filter[] }>()
  const [error, setError] = useState<unknown>()
  useEffect(() => {
    Promise.all([pagingOf(resource.url), schemaAnalyzer.getFiltersParametersFromSchema(resource)])
      .then(([paging, filters]) => setSetup({ paging, filters }))
      .catch(setError)
  }, [resource])
  if (error) throw error
  if (!setup) return createElement(Loading)
  const { paging, filters } = setup
  const canDelete = (resource.operations ?? []).some((operation) => operation.type === 'delete')
  return createElement(ListGuesser, {
    perPage: paging.perPage,
    pagination: paging.paged
      ? createElement(Pagination, { rowsPerPageOptions: paging.perPageChoices })
      : false,
    ...(filters.length > 0 && {
      filters: filters.map((filter) =>
        createElement(InputGuesser, {
          key: filter.name,
          source: filter.name,
          alwaysOn: filter.isRequired,
          validate: [],
        })
      ),
    }),
    // No order parameter until a column header asks for one: the collection's own order.
    sort: { field: '', order: 'ASC' },
    exporter: false,
    ...(canDelete ? {} : { bulkActionButtons: false }),
  })
}
