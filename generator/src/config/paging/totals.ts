import { keepsRowEstimates } from '@prisma-hydra/runtime/defaults'
import type { Report } from '../../problems.js'
import type { TotalsModel } from '../schema/model.js'
import type { PagingOptions } from '../schema/options.js'

/** Seconds a `cached` count is reused when `totalsCacheSeconds` is not given. */
export const DEFAULT_CACHE_SECONDS = 10

/**
 * `totals` and `totalsCacheSeconds` of one operation: operation > resource (`@pagination`) >
 * global (`platform.defaults`) > `exact`. `estimated` needs a database that keeps row estimates
 * (PostgreSQL); elsewhere it is an exact count, with a warning where it is written.
 */
export function resolveTotals(
  levels: { defaults: PagingOptions; resource: PagingOptions; operation: PagingOptions },
  source: string,
  provider: string,
  report: Report
): TotalsModel {
  const { defaults, resource, operation } = levels
  const pick = <K extends 'totals' | 'totalsCacheSeconds'>(key: K) =>
    operation[key] !== undefined
      ? { value: operation[key], from: source }
      : resource[key] !== undefined
        ? { value: resource[key], from: '@pagination' }
        : defaults[key] !== undefined
          ? { value: defaults[key], from: 'platform.defaults' }
          : undefined
  const mode = pick('totals')
  const seconds = pick('totalsCacheSeconds')
  // Inherited from another level, a duration is simply unused where totals are not cached.
  if (seconds?.from === source && mode?.value !== 'cached') {
    report({
      source,
      option: 'totalsCacheSeconds',
      message: `(from ${seconds.from}) applies only with totals: "cached", and totals is "${mode?.value ?? 'exact'}" here`,
    })
  }
  // One schema often serves SQLite in development and PostgreSQL in production: elsewhere an
  // estimate is an exact count, said once here rather than refused.
  if (mode?.value === 'estimated' && !keepsRowEstimates(provider) && mode.from === source) {
    report({
      severity: 'warning',
      source,
      option: 'totals',
      message: `"estimated" reads PostgreSQL's planner statistics, which ${provider} does not keep: totals are exact counts here (use "cached" for cheaper totals on ${provider})`,
    })
  }
  if (mode?.value === 'cached') {
    return { mode: 'cached', seconds: seconds?.value ?? DEFAULT_CACHE_SECONDS }
  }
  return mode?.value === 'estimated' && keepsRowEstimates(provider)
    ? { mode: 'estimated' }
    : { mode: 'exact' }
}
