/**
 * @module
 * Whether the answer to an anonymous request is the same for every anonymous caller
 * (docs/caching.md): so when every model whose rules bear on the request declares that its rules
 * read only the caller's credentials (`reads: 'credentials'`). A rule that declares nothing may
 * read anything of the request (its address, a header, the time), so its answers stay private.
 */
import type { ModelRules } from '../contract/access-rules.js'
import { type CallerRequest, relatedOf } from './caller-view.js'

/**
 * Whether every rule bearing on `request` reads only the caller's credentials: then a request
 * without credentials gets an answer every such request shares.
 */
export function sameForAnonymous(
  rules: ModelRules<never> | undefined,
  request: CallerRequest
): boolean {
  if (!rules) return true
  return [request.model, ...relatedOf(request)].every((model) => {
    const own = rules[model]
    return own === undefined || own.reads === 'credentials'
  })
}
