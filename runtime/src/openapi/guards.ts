/**
 * @module
 * The guarded routes in the OpenAPI document (docs/security.md): a route whose operation (or, for
 * a sub-collection, whose parent's item route) has a guard may answer 401 and 403, and names the
 * security scheme of the app's challenge (`Bearer` by default).
 */
import type { AuthenticationSettings, ModelRules } from '../contract/access-rules.js'
import { hasGuard } from '../data/caller-view.js'

/** What a route is served as: its model and operation, and a sub-collection's parent model. */
export interface RouteOwner {
  model: string
  operation: string
  parent?: string | undefined
}

/** Whether a guard is checked on the route. */
export function isGuarded(rules: ModelRules<never> | undefined, owner: RouteOwner): boolean {
  return (
    hasGuard(rules, owner.model, owner.operation) ||
    (owner.parent !== undefined && hasGuard(rules, owner.parent, 'item'))
  )
}

/** The name and the HTTP security scheme of the app's challenge (`bearer`, `basic`...). */
export function securityScheme(settings: AuthenticationSettings | undefined): {
  name: string
  scheme: Record<string, string>
} {
  const name = (settings?.challenge ?? 'Bearer').split(/\s/)[0]?.toLowerCase() || 'bearer'
  return { name, scheme: { type: 'http', scheme: name } }
}
