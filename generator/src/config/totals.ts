import type { Report } from '../problems.js'
import type { TotalsModel } from './model.js'
import type { PagingOptions } from './options.js'

/** Seconds a `cached` count is reused when `totalsCacheSeconds` is not given. */
export const DEFAULT_CACHE_SECONDS = 10

/**
 * `totals` and `totalsCacheSeconds` of one operation: operation > resource (`@pagination`) >
 * global (`platform.defaults`) > `exact`. `estimated` needs a database that keeps row estimates
 * (PostgreSQL); elsewhere it is refused here rather than silently counted.
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
  if (mode?.value === 'estimated' && provider !== 'postgresql' && provider !== 'cockroachdb') {
    report({
      source,
      option: 'totals',
      message: `"estimated" (from ${mode.from}) reads PostgreSQL's planner statistics, which ${provider} does not keep; use "cached" (an exact count reused for totalsCacheSeconds) or "exact"`,
    })
  }
  if (mode?.value === 'cached') {
    return { mode: 'cached', seconds: seconds?.value ?? DEFAULT_CACHE_SECONDS }
  }
  return mode?.value === 'estimated' ? { mode: 'estimated' } : { mode: 'exact' }
}
