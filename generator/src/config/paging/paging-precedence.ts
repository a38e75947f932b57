import type { Report } from '../../problems.js'
import type { ResolvedPaging } from '../schema/model.js'
import { builtInPaging, type PagingOptions } from '../schema/options.js'

/**
 * The paging settings of one operation: each option from the operation, else the resource
 * (`@pagination`), else `platform.defaults`, else the built-in default. Reports a maximum page size
 * below the page size, naming where each of the two came from
 * (docs/annotations.md#options-at-every-level).
 */
export function resolvePaging(
  defaults: PagingOptions,
  resource: PagingOptions,
  operation: PagingOptions,
  source: string,
  report: Report
): ResolvedPaging {
  const pick = <K extends keyof typeof builtInPaging>(
    key: K
  ): { value: PagingOptions[K] | (typeof builtInPaging)[K]; from: string } => {
    if (operation[key] !== undefined) return { value: operation[key], from: source }
    if (resource[key] !== undefined) return { value: resource[key], from: '@pagination' }
    if (defaults[key] !== undefined) return { value: defaults[key], from: 'platform.defaults' }
    return { value: builtInPaging[key], from: 'the built-in default' }
  }
  const itemsPerPage = pick('itemsPerPage')
  const maximum = pick('maximumItemsPerPage')
  const clientItemsPerPage = pick('clientItemsPerPage')
  const resolved: ResolvedPaging = {
    enabled: pick('enabled').value as boolean,
    clientEnabled: pick('clientEnabled').value as boolean,
    itemsPerPage: itemsPerPage.value as number,
    clientItemsPerPage: clientItemsPerPage.value as boolean,
    maximumItemsPerPage: maximum.value as number | null,
    partial: pick('partial').value as boolean,
    clientPartial: pick('clientPartial').value as boolean,
    viaCursor: operation.viaCursor ?? resource.viaCursor ?? null,
  }
  const max = resolved.maximumItemsPerPage
  const maxExplicit = maximum.from !== 'the built-in default'
  if (max !== null && max < resolved.itemsPerPage && (resolved.clientItemsPerPage || maxExplicit)) {
    report({
      source,
      option: 'maximumItemsPerPage',
      message: `the maximum page size ${max} (from ${maximum.from}) is below the page size ${resolved.itemsPerPage} (from ${itemsPerPage.from}); raise maximumItemsPerPage to at least ${resolved.itemsPerPage}, or set it to null for no maximum`,
    })
  }
  if (max === null && resolved.clientItemsPerPage) {
    report({
      severity: 'warning',
      source,
      option: 'maximumItemsPerPage',
      message:
        'is null while clients may set the page size: a client can ask for every row at once',
    })
  }
  return resolved
}
