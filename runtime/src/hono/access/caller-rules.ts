/**
 * @module
 * What the access rules say for a caller, for the application's own routes (its writes among
 * them): the guard's answer, the scope as a `where`, the hidden fields, read exactly as the
 * generated reads read them (docs/security.md, "The app's own routes"). The generated index
 * exports it typed by the app's rules (`hydraRules`).
 */
import type { Context } from 'hono'
import type {
  AuthenticationSettings,
  GuardAnswer,
  ScopeWhere,
} from '../../contract/access-rules.js'
import { admit, type GuardedAction, ruleOf, run, shownOnSomeRows } from '../../data/caller-view.js'
import { nestableWhere } from '../../data/prisma7/where.js'
import { both, type Condition } from '../../plan/condition.js'
import { readWhere } from '../../plan/scope-reader.js'
import type { AccessRules, ResourceAccess } from './access-rules.js'
import { checkedAccess } from './credentials-check.js'

/** The rules `A` gives model `M`. */
type Access<A, M extends keyof A> = NonNullable<A[M]>
/** The `where` type of a resource's rules (`Prisma.LoanWhereInput`). */
type WhereOf<R> = R extends ResourceAccess<infer W, infer _O, infer _F> ? W : ScopeWhere
/** The operations of a resource's rules, and its items' (`item`). */
type OperationOf<R> = R extends ResourceAccess<infer _W, infer O, infer _F> ? O | 'item' : string
/** The fields of a resource's rules. */
type FieldOf<R> = R extends ResourceAccess<infer _W, infer _O, infer F> ? F : string

/**
 * The rules of `A` for one caller and model. `operation` names whose rules apply (an operation's
 * own, else the resource's): `item` by default, the rules of the model's items. The generated
 * `hydraRules({ access, authentication })` returns them, typed by the app's rules
 * (docs/security.md#the-apps-own-routes).
 *
 * @example
 * A write of the app's own under the rules of reads: a loan the caller may not read is a 404.
 * ```ts
 * const rules = hydraRules({ access })
 * app.post('/loans/:id/return', async (c) => {
 *   const param = c.req.param('id')
 *   const id = /^\d{1,9}$/.test(param) ? Number(param) : 0 // not an id: 0, which no loan has
 *   const where = await rules.where(c, 'Loan', { id })
 *   const { count } = await prisma.loan.updateMany({ where, data: { returnedAt: new Date() } })
 *   if (count === 0) throw new HydraError(404, `No Loan has the id "${param}".`)
 *   return c.body(null, 204)
 * })
 * ```
 */
export interface CallerRules<A> {
  /** The guard's answer; `allow` when the model has none. */
  guard<M extends keyof A & string>(
    c: Context,
    model: M,
    operation?: OperationOf<Access<A, M>>
  ): Promise<GuardAnswer>
  /**
   * The guard checked (its 401 with `WWW-Authenticate`, or 403, thrown as the problem the
   * generated routes answer, saying "read" on a route of a safe method and "write" on any other),
   * then `condition` within the caller's scope: a `where` that Prisma reads alike wherever it is
   * put, "no row" included, for `updateMany`, `deleteMany` or a read. A `condition` holding an
   * undefined value (Prisma would leave it out) throws a TypeError.
   */
  where<M extends keyof A & string>(
    c: Context,
    model: M,
    condition: WhereOf<Access<A, M>>,
    operation?: OperationOf<Access<A, M>>
  ): Promise<WhereOf<Access<A, M>>>
  /**
   * The caller's scope, settled (docs/security.md, "How a scope is read"): undefined for every
   * row, `{ id: { in: [] } }` (the model's key) for none. The guard is not checked: call `where`
   * to check both.
   */
  scope<M extends keyof A & string>(
    c: Context,
    model: M,
    operation?: OperationOf<Access<A, M>>
  ): Promise<WhereOf<Access<A, M>> | undefined>
  /** The fields (and links) the caller may not see. */
  hidden<M extends keyof A & string>(
    c: Context,
    model: M
  ): Promise<readonly FieldOf<Access<A, M>>[]>
  /**
   * The fields the caller sees on some rows only, each with the condition of the rows that show
   * it, settled as `scope` settles a scope (docs/security.md#fields-shown-on-some-rows); a field
   * shown on every row, or hidden on every row (`hidden`), is not named.
   */
  shownWhere<M extends keyof A & string>(
    c: Context,
    model: M
  ): Promise<{ [Field in FieldOf<Access<A, M>>]?: WhereOf<Access<A, M>> }>
}

/**
 * The rules of `access` (createHydraApp's) for the app's own routes: what the generated
 * `hydraRules` calls with the app's keys. `keys` names a scalar key
 * field of each model: "no row" is written as a condition on it (`{ id: { in: [] } }`), which
 * Prisma reads as no row wherever the app puts it, where `{ OR: [] }` would be every row once in
 * an `AND`.
 */
export function callerRules<A extends AccessRules>(
  access: A | undefined,
  authentication: AuthenticationSettings,
  keys: Readonly<Record<string, string>>
): CallerRules<A> {
  const checked = checkedAccess(access, authentication)
  const resource = (model: string) => checked?.[model]
  const written = (model: string, condition: Condition | undefined): ScopeWhere | undefined =>
    nestableWhere(condition, keys[model])
  const scopeRead = (c: Context, model: string, operation: string) =>
    run(c, ruleOf(resource(model), operation, 'scope'), model, operation)
  const scopeOf = async (c: Context, model: string, operation = 'item') =>
    written(model, await scopeRead(c, model, operation))
  // One implementation for every model: the interface types each model's rules.
  const rules = {
    async guard(c: Context, model: string, operation = 'item'): Promise<GuardAnswer> {
      const guard = ruleOf(resource(model), operation, 'guard')
      return guard ? guard(c) : 'allow'
    },
    async where(c: Context, model: string, condition: ScopeWhere, operation = 'item') {
      await admit(c, resource(model), operation, authentication, actionOf(c.req.method))
      const scope = await scopeRead(c, model, operation)
      // The route's own condition is read as a scope is: `{ id: undefined }` (a missing
      // parameter) would otherwise write every row.
      return written(model, both(scope, readWhere(condition))) ?? {}
    },
    scope: scopeOf,
    async hidden(c: Context, model: string): Promise<readonly string[]> {
      return (await resource(model)?.hidden?.(c)) ?? []
    },
    async shownWhere(c: Context, model: string) {
      const hidden = new Set((await resource(model)?.hidden?.(c)) ?? [])
      const shown = await shownOnSomeRows(c, resource(model), model, hidden)
      return Object.fromEntries([...shown].map(([field, on]) => [field, written(model, on)]))
    },
  }
  return rules as CallerRules<A>
}

/** The methods RFC 9110 §9.2.1 defines as safe: a route of any other changes something. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE'])

/** What a route of `method` does with the resources it guards. */
function actionOf(method: string): GuardedAction {
  return SAFE_METHODS.has(method) ? 'read' : 'write'
}
