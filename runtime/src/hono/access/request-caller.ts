/**
 * @module
 * The caller of a request as the routes read it: the access rules called with the request's
 * context (data/caller-view.ts), each model's item scope read once per request, and the request
 * marked personal (the headers its answer varies by) before any rule runs, for the HTTP cache
 * headers (http-cache.ts, caller-headers.ts).
 */
import type { Context } from 'hono'
import type { AuthenticationSettings } from '../../contract/access-rules.js'
import {
  type CallerRequest,
  type CallerView,
  callerView,
  type ItemScopes,
  personalHeaders,
} from '../../data/caller-view.js'
import type { AccessRules } from './access-rules.js'

/** The context variable memoising each model's item scope for the request. */
const SCOPES = 'prisma-hydra caller scopes'

/** The context variable holding the request headers a personal response varies by. */
const PERSONAL = 'prisma-hydra personal response'

/** The rules a request's caller is read under (a resource's app options). */
export interface CallerOptions {
  /** The access rules by model (`createHydraApp({ access })`). */
  access?: AccessRules | undefined
  /** The `WWW-Authenticate` challenge of a 401 and the headers a caller is known by. */
  authentication?: AuthenticationSettings | undefined
}

/**
 * The request headers this request's answer varies by when a rule bore on it (whatever the
 * answer: a page, a 404, a 401), or undefined when it does not depend on the caller.
 */
export function personalVary(c: Context): readonly string[] | undefined {
  return c.get(PERSONAL)
}

/** The item scopes read for this request so far. */
function itemScopes(c: Context): ItemScopes {
  let scopes: ItemScopes | undefined = c.get(SCOPES)
  if (!scopes) {
    scopes = new Map()
    c.set(SCOPES, scopes)
  }
  return scopes
}

/**
 * What the caller may read for this request under `options.access`: the guards checked (a 401 or
 * 403 problem thrown before any query), then the scopes and hidden fields.
 */
export function requestCaller(
  c: Context,
  options: CallerOptions,
  request: CallerRequest
): Promise<CallerView> {
  const { access, authentication } = options
  const vary = personalHeaders(access, request, authentication)
  if (vary) c.set(PERSONAL, vary)
  return callerView<Context>(c, access, request, authentication, itemScopes(c))
}
