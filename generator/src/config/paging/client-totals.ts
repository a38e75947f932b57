import {
  type CountPreference,
  countPreferences,
  keepsRowEstimates,
} from '@prisma-hydra/runtime/defaults'
import type { Report } from '../../problems.js'
import type { ResolvedPaging } from '../schema/model.js'
import type { PagingOptions } from '../schema/options.js'

/**
 * `clientTotals` of one operation (docs/paging.md#client-totals): operation > resource
 * (`@pagination`) > global (`platform.defaults`) > none; `true` is every total, `false` none.
 * Where it is written, reports an operation that is never paged (no total to choose), and warns
 * of `estimated` or `planned` named on a database that keeps no row estimates (an exact count
 * there).
 */
export function resolveClientTotals(
  levels: { defaults: PagingOptions; resource: PagingOptions; operation: PagingOptions },
  paging: ResolvedPaging,
  context: { source: string; provider: string },
  report: Report
): readonly CountPreference[] {
  const { defaults, resource, operation } = levels
  const { source, provider } = context
  const written =
    operation.clientTotals !== undefined
      ? { value: operation.clientTotals, from: source }
      : resource.clientTotals !== undefined
        ? { value: resource.clientTotals, from: '@pagination' }
        : defaults.clientTotals !== undefined
          ? { value: defaults.clientTotals, from: 'platform.defaults' }
          : undefined
  const value = written?.value ?? false
  const modes: readonly CountPreference[] =
    value === true ? countPreferences : value === false ? [] : value
  if (modes.length === 0 || written?.from !== source) return modes
  if (!paging.enabled && !paging.clientEnabled) {
    report({
      source,
      option: 'clientTotals',
      message:
        'applies to paged collections, and this one is never paged (enabled: false, clientEnabled: false)',
    })
  }
  const estimates = modes.filter((mode) => mode === 'estimated' || mode === 'planned')
  const one = estimates.length === 1
  if (value !== true && estimates.length > 0 && !keepsRowEstimates(provider)) {
    report({
      severity: 'warning',
      source,
      option: 'clientTotals',
      message: `${estimates.map((mode) => `"${mode}"`).join(' and ')} ${one ? 'reads' : 'read'} PostgreSQL's planner statistics, which ${provider} does not keep: ${one ? 'it is an exact count' : 'they are exact counts'} here`,
    })
  }
  return modes
}
