/**
 * A resource's list page: API Platform's guessed list (columns and sortable headers from the
 * documentation and `hydra:search`; paging, sorting and the buttons offered are the runtime's
 * preset's, main.ts), with filter inputs that are optional.
 *
 * Its filter inputs are the admin's own guess (the search variables named like a field), but
 * optional: the admin's FilterGuesser marks the inputs of required fields required, so an input
 * emptied by hand is an error and the list stays filtered by its last value.
 */
import { hydraSchemaAnalyzer, InputGuesser, ListGuesser } from '@api-platform/admin'
import type { Resource } from '@api-platform/api-doc-parser'
import { createElement, useEffect, useState } from 'react'
import { Loading, Pagination } from 'react-admin'

export interface OptionalFiltersListProps {
  /** The resource as api-doc-parser read it from the documentation. */
  resource: Resource
  /** The page sizes its pagination offers (the preset's `rowsPerPageOptions`). */
  rowsPerPageOptions: number[]
}

interface Filter {
  name: string
  isRequired: boolean
}

const schemaAnalyzer = hydraSchemaAnalyzer()

/** The list page of `resource`. */
export function OptionalFiltersList({ resource, rowsPerPageOptions }: OptionalFiltersListProps) {
  const [filters, setFilters] = useState<Filter[]>()
  const [error, setError] = useState<unknown>()
  useEffect(() => {
    schemaAnalyzer.getFiltersParametersFromSchema(resource).then(setFilters).catch(setError)
  }, [resource])
  if (error) throw error
  if (!filters) return createElement(Loading)
  return createElement(ListGuesser, {
    pagination: createElement(Pagination, { rowsPerPageOptions }),
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
  })
}
