/**
 * @module
 * What one caller may read for one request (docs/security.md): the access rules' guards checked
 * (a 401 or 403 before any query runs), then the row scopes and hidden fields the request needs,
 * each rule called once per request. The data-access layer applies the view to every read.
 */
import type { Context } from 'hono'
import { HydraError } from '../errors.js'
import { NO_ROW, settleWhere, WhereFault } from '../filters/settled-where.js'
import type {
  AccessRules,
  AuthenticationSettings,
  OperationAccess,
  ResourceAccess,
  RowScope,
} from './access-rules.js'

type Where = Record<string, unknown>

/** What a caller may read of one request's rows. */
export interface CallerView {
  /**
   * Whether a rule bears on the request (its own resource's, a parent's or a relation target's):
   * its responses then depend on the caller (`Cache-Control: private`, `Vary`).
   */
  personal: boolean
  /** The scope of the operation's own rows; undefined: every row. */
  scope: Where | undefined
  /**
   * Whether a row of `model` (a parent, a relation's target: one of the request's `related`) is
   * visible: the scope its item route applies, undefined when every row is.
   */
  scopeOf(model: string): Where | undefined
  /** The resource's fields the caller may not see. */
  hidden: ReadonlySet<string>
  /** The fields of `model` (one of the request's `related`) the caller may not see. */
  hiddenOf(model: string): ReadonlySet<string>
}

/** What a request reads: its resource and operation (`item` for an item), and other models. */
export interface CallerRequest {
  model: string
  operation: string
  /** Models whose visibility the request needs (relation targets of its filters and orders). */
  related?: readonly string[] | undefined
  /** A sub-collection's parent: its item route's guard is checked, and its scope applies. */
  parent?: string | undefined
}

/** The view of a request no rule bears on. */
export const EVERYONE: CallerView = {
  personal: false,
  scope: undefined,
  scopeOf: () => undefined,
  hidden: new Set(),
  hiddenOf: () => new Set(),
}

/** The context variable memoising each model's item scope for the request. */
const SCOPES = 'prisma-hydra caller scopes'

/** The context variable holding the request headers a personal response varies by. */
const PERSONAL = 'prisma-hydra personal response'

/** The default request headers a caller is known by (AuthenticationSettings' `vary`). */
export const CALLER_HEADERS: readonly string[] = ['Authorization', 'Cookie']

/**
 * The request headers this request's answer varies by when a rule bore on it (whatever the
 * answer: a page, a 404, a 401), or undefined when it does not depend on the caller.
 */
export function personalVary(c: Context): readonly string[] | undefined {
  return c.get(PERSONAL)
}

/**
 * The caller's view of a request under `rules`: throws the 401 (with `WWW-Authenticate`) or 403
 * problem of a guard that refuses, before any scope is read.
 */
export async function callerView(
  c: Context,
  rules: AccessRules | undefined,
  request: CallerRequest,
  settings: AuthenticationSettings = {}
): Promise<CallerView> {
  // An app without rules reads every row: nothing to resolve.
  if (!rules) return EVERYONE
  const own = rules[request.model]
  const related = [...(request.related ?? []), ...(request.parent ? [request.parent] : [])]
  const personal = own !== undefined || related.some((model) => rules[model] !== undefined)
  if (!personal) return EVERYONE
  // Marked before any rule runs, so that a refusal is as private as a page.
  c.set(PERSONAL, settings.vary ?? CALLER_HEADERS)
  await admit(c, own, request.operation, settings)
  if (request.parent) await admit(c, rules[request.parent], 'item', settings)
  const scopes = new Map<string, Where | undefined>()
  await Promise.all(
    related.map(async (model) => scopes.set(model, await relatedScope(c, rules, model)))
  )
  const scope =
    request.operation === 'item'
      ? await itemScope(c, rules, request.model)
      : await run(c, ruleOf(own, request.operation, 'scope'), request.model, request.operation)
  const hidden = new Set((await own?.hidden?.(c)) ?? [])
  const hiddenRelated = new Map<string, ReadonlySet<string>>()
  await Promise.all(
    related.map(async (model) =>
      hiddenRelated.set(model, new Set((await rules[model]?.hidden?.(c)) ?? []))
    )
  )
  return {
    personal,
    scope,
    scopeOf(model) {
      // A model the request did not name was not read: refuse rather than see every row.
      if (!scopes.has(model)) throw new TypeError(`No scope of ${model} was read for this request`)
      return scopes.get(model)
    },
    hidden,
    hiddenOf: (model) => hiddenRelated.get(model) ?? new Set(),
  }
}

/** Whether `operation` of `model` has a guard (its own, or the resource's). */
export function hasGuard(
  rules: AccessRules | undefined,
  model: string,
  operation: string
): boolean {
  return ruleOf(rules?.[model], operation, 'guard') !== undefined
}

/** The rule of an operation: its own when it gives one (`null` included), else the resource's. */
export function ruleOf<K extends 'scope' | 'guard'>(
  access: ResourceAccess | undefined,
  operation: string,
  key: K
): OperationAccess[K] {
  const own = access?.operations?.[operation]
  return own && own[key] !== undefined ? own[key] : access?.[key]
}

/**
 * The related rows of `model` a caller sees through a relation (a filter, an order, exists): none
 * when its item route's guard refuses the caller, since that route would serve none of them; else
 * its item scope. The guard runs first, so a scope may rely on what the guard checked.
 */
async function relatedScope(
  c: Context,
  rules: AccessRules,
  model: string
): Promise<Where | undefined> {
  const guard = ruleOf(rules[model], 'item', 'guard')
  if (guard && (await guard(c)) !== 'allow') return NO_ROW
  return itemScope(c, rules, model)
}

/**
 * Runs a scope (undefined or null: every row) and settles its answer (filters/settled-where.ts):
 * read by the rules of logic (`{ OR: [] }`, `{ NOT: {} }`: no row), and written so that Prisma
 * reads it the same wherever the runtime joins it. A value Prisma would read as no condition
 * (`{ tenantId: claims.tenant }` for a token without that claim, or whose claim is `{}`) would
 * select every row, and a text holding NUL is one no database compares alike: faults of the
 * scope, refused (a 500 naming the model and operation) rather than read.
 */
export async function run(
  c: Context,
  scope: RowScope | null | undefined,
  model: string,
  operation: string
): Promise<Where | undefined> {
  if (!scope) return undefined
  const where = await scope(c)
  if (where === undefined) return undefined
  try {
    return settleWhere(where)
  } catch (error) {
    if (!(error instanceof WhereFault)) throw error
    throw new TypeError(
      `The row scope of ${model} (${operation}) answered ${error.problem} at ${error.path || 'its top'}: it is refused rather than read`,
      { cause: error }
    )
  }
}

/** The scope of `model`'s item route, read once per request. */
function itemScope(c: Context, rules: AccessRules, model: string): Promise<Where | undefined> {
  let memo: Map<string, Promise<Where | undefined>> | undefined = c.get(SCOPES)
  if (!memo) {
    memo = new Map()
    c.set(SCOPES, memo)
  }
  let scope = memo.get(model)
  if (!scope) {
    scope = run(c, ruleOf(rules[model], 'item', 'scope'), model, 'item')
    memo.set(model, scope)
  }
  return scope
}

/** Checks the operation's guard: a 401 or 403 problem when it refuses. */
export async function admit(
  c: Context,
  access: ResourceAccess | undefined,
  operation: string,
  settings: AuthenticationSettings
): Promise<void> {
  const guard = ruleOf(access, operation, 'guard')
  if (!guard) return
  const answer = await guard(c)
  if (answer === 'allow') return
  if (answer === 'unauthenticated')
    throw new HydraError(401, 'Authentication is required to read this resource.', {
      headers: { 'WWW-Authenticate': settings.challenge ?? 'Bearer' },
    })
  if (answer === 'forbidden') throw new HydraError(403, 'The caller may not read this resource.')
  throw new TypeError(`A guard answers allow, unauthenticated or forbidden, not ${String(answer)}`)
}
