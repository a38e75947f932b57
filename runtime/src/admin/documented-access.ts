import type { IntrospectPayload } from '@api-platform/admin'
import type { AuthProvider } from 'react-admin'

/** A resource of the documentation as api-doc-parser reads it. */
export type DocumentedResource = NonNullable<IntrospectPayload['data']['resources']>[number]
type OperationType = NonNullable<DocumentedResource['operations']>[number]['type']

/**
 * The operations of the documentation (api-doc-parser's types, from each `hydra:supportedOperation`
 * and its method) that react-admin's actions need; an action not named here is not the
 * documentation's to refuse (`export` reads the list).
 */
const NEEDS: Record<string, OperationType> = {
  list: 'list',
  show: 'show',
  create: 'create',
  clone: 'create',
  edit: 'edit',
  delete: 'delete',
}

/**
 * Whether the documentation offers `action` on `resource`: react-admin asks before it shows a
 * button or a route (`canAccess`), so an operation the API does not document (a POST, a PUT or
 * PATCH, a DELETE) is never offered: no create, edit, delete or bulk delete button, no row
 * checkbox. A resource the documentation does not describe is not refused.
 */
export function documentedAccess(
  resources: readonly DocumentedResource[]
): (params: { action: string; resource: string }) => boolean {
  const operations = new Map(
    resources.map((resource) => [
      resource.name,
      new Set((resource.operations ?? []).map((operation) => operation.type)),
    ])
  )
  return ({ action, resource }) => {
    const documented = operations.get(resource)
    const needed = NEEDS[action]
    return documented === undefined || needed === undefined || documented.has(needed)
  }
}

/**
 * An auth provider whose `canAccess` is `allowed` and, when the app has one, its own provider's
 * answer too. Without one, every other call succeeds: react-admin asks `canAccess` only of an auth
 * provider, and this one signs nobody in or out (`logout` resolves `false`, staying on the page).
 */
export function documentedAuthProvider(
  allowed: (params: { action: string; resource: string }) => boolean,
  own?: AuthProvider
): AuthProvider {
  if (own) {
    // Its prototype kept: a provider written as a class keeps its methods.
    const wrapped: AuthProvider = Object.create(own)
    wrapped.canAccess = async (params) =>
      allowed(params) && (own.canAccess ? await own.canAccess(params) : true)
    return wrapped
  }
  return {
    login: async () => undefined,
    logout: async () => false,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    canAccess: async (params) => allowed(params),
  }
}
