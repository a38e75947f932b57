/**
 * @module
 * The totals a client asks for with `Prefer: count=…` (docs/paging.md#client-totals): read where
 * the operation lets clients choose them (its `clientTotals`), and remembered for the response,
 * which then varies by `Prefer` and, when the preference was honoured, says so with
 * `Preference-Applied` (RFC 7240 section 3) and a validator of its own (http-cache.ts).
 */
import type { Context } from 'hono'
import type { CountPreference, PagingConfig } from '../../contract/paging.js'
import { readPreferences } from './prefer-header.js'

/** The context variable holding this request's count preference, once read. */
const COUNT = 'prisma-hydra count preference'

/** What the response to a request owes its count preference. */
export interface CountPreferenceState {
  /** The operation honours the preference: the response varies by `Prefer`. */
  varies: true
  /** The preference the response honours, when it does. */
  applied?: CountPreference | undefined
}

/**
 * Marks the response to this request as varying by `Prefer` when its operation lets clients
 * choose their totals (`paging.clientTotals`): called before anything may answer the request, so
 * that every response of the operation (a page, a 304, a 400, 404 or 406 problem) varies by it.
 * Returns whether it does.
 */
export function varyByPrefer(c: Context, paging: PagingConfig): boolean {
  const allowed = paging.clientTotals
  if (!allowed || allowed.length === 0) return false
  if (!c.get(COUNT)) c.set(COUNT, { varies: true } satisfies CountPreferenceState)
  return true
}

/**
 * The total this request asks for, when its operation lets clients choose (`paging.clientTotals`)
 * and the asked one is among those it allows; undefined otherwise (the preference is ignored, as
 * RFC 7240 lets a server ignore any). Where the operation lets clients choose, the response varies
 * by `Prefer` whether or not one is given.
 */
export function askedCount(c: Context, paging: PagingConfig): CountPreference | undefined {
  if (!varyByPrefer(c, paging)) return undefined
  const header = c.req.header('Prefer')
  if (header === undefined) return undefined
  const asked = readPreferences([header]).get('count')
  return paging.clientTotals?.find((mode) => mode === asked)
}

/** Notes that the response honours `preference` (after its page was read so). */
export function applyCount(c: Context, preference: CountPreference): void {
  c.set(COUNT, { varies: true, applied: preference } satisfies CountPreferenceState)
}

/** What this request's response owes its count preference; undefined when it owes nothing. */
export function countPreferenceOf(c: Context): CountPreferenceState | undefined {
  return c.get(COUNT)
}

/** The `Vary` a problem answering this request owes its count preference: `Prefer`, or none. */
export function preferVary(c: Context): [string, string][] {
  return countPreferenceOf(c) ? [['Vary', 'Prefer']] : []
}
