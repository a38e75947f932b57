/**
 * @module
 * What one caller may read for one request (docs/security.md): the access rules' guards checked
 * (a 401 or 403 before any query runs), then the row scopes and hidden fields the request needs,
 * each rule called once per request with what the caller is known by (`A`, handed over by the
 * routes and never read here). The data-access layer applies the view to every read.
 */
import type {
  AuthenticationSettings,
  ModelRules,
  OperationRules,
  ResourceRules,
  ScopeRule,
  ScopeWhere,
} from '../contract/access-rules.js'
import { HydraError } from '../errors.js'
import { type Condition, isNever, NEVER } from '../plan/condition.js'
import { readWhere, WhereFault } from '../plan/scope-reader.js'

/** What a caller may read of one request's rows. */
export interface CallerView {
  /**
   * Whether a rule bears on the request (its own resource's, a parent's or a relation target's):
   * its responses then depend on the caller (`Cache-Control: private`, `Vary`).
   */
  personal: boolean
  /** The scope of the operation's own rows; undefined: every row. */
  scope: Condition | undefined
  /**
   * Whether a row of `model` (a parent, a relation's target: one of the request's `related`) is
   * visible: the scope its item route applies, undefined when every row is.
   */
  scopeOf(model: string): Condition | undefined
  /**
   * The scope of the first page a to-many relation to `model` embeds (one of the request's
   * `pages`): its sub-collection's, read by the rules of `model`'s main collection operation;
   * "no row" when that operation's guard, or the item guard of the request's own model (the
   * sub-collection's parent), refuses the caller.
   */
  pageScopeOf(model: string): Condition | undefined
  /**
   * The item scope of the request's own model where it embeds first pages: the parent's scope a
   * sub-collection's rows are tied to (undefined: every row).
   */
  pageParentScope: Condition | undefined
  /** The resource's fields the caller may not see. */
  hidden: ReadonlySet<string>
  /** The fields of `model` (one of the request's `related`) the caller may not see. */
  hiddenOf(model: string): ReadonlySet<string>
  /**
   * The resource's fields the caller sees only on some rows, by field: the condition of the rows
   * that show it (its `shownWhere` rule; a field it hides on every row is in `hidden` instead).
   */
  shownWhere: ShownConditions
  /** The same of `model` (one of the request's `related`). */
  shownWhereOf(model: string): ShownConditions
}

/** By field, the condition of the rows that show it to the caller. */
export type ShownConditions = ReadonlyMap<string, Condition>

/** What a request reads: its resource and operation (`item` for an item), and other models. */
export interface CallerRequest {
  /** The model read. */
  model: string
  /** The operation whose rules apply (`item` for an item). */
  operation: string
  /** Models whose visibility the request needs (relation targets of its filters and orders). */
  related?: readonly string[] | undefined
  /** A sub-collection's parent: its item route's guard is checked, and its scope applies. */
  parent?: string | undefined
  /**
   * Models whose first page the request embeds (to-many relations declared embedded): served as
   * their sub-collections are, by their main collection operation's rules.
   */
  pages?: readonly string[] | undefined
}

/** The view of a request no rule bears on. */
export const EVERYONE: CallerView = {
  personal: false,
  scope: undefined,
  scopeOf: () => undefined,
  pageScopeOf: () => undefined,
  pageParentScope: undefined,
  hidden: new Set(),
  hiddenOf: () => new Set(),
  shownWhere: new Map(),
  shownWhereOf: () => new Map(),
}

/**
 * Each model's item scope, read once per request: the routes keep one map per request and hand it
 * to every view of that request.
 */
export type ItemScopes = Map<string, Promise<Condition | undefined>>

/** The default request headers a caller is known by (AuthenticationSettings' `vary`). */
export const CALLER_HEADERS: readonly string[] = ['Authorization', 'Cookie']

/** The models whose rules bear on a request: its own, its relations' targets, its parent. */
export const relatedOf = (request: CallerRequest): string[] => [
  ...(request.related ?? []),
  ...(request.pages ?? []),
  ...(request.parent ? [request.parent] : []),
]

/**
 * The request headers a request's answer varies by when a rule bears on it (whatever the answer:
 * a page, a 404, a 401), or undefined when it does not depend on the caller. Known before any
 * rule runs, so that a refusal is as private as a page.
 */
export function personalHeaders(
  rules: ModelRules<never> | undefined,
  request: CallerRequest,
  settings: AuthenticationSettings = {}
): readonly string[] | undefined {
  if (!rules) return undefined
  const models = [request.model, ...relatedOf(request)]
  return models.some((model) => rules[model] !== undefined)
    ? (settings.vary ?? CALLER_HEADERS)
    : undefined
}

/**
 * The caller's view of a request under `rules`, each rule called with `caller`: throws the 401
 * (with `WWW-Authenticate`) or 403 problem of a guard that refuses, before any scope is read.
 */
export async function callerView<A>(
  caller: A,
  rules: ModelRules<A> | undefined,
  request: CallerRequest,
  settings: AuthenticationSettings = {},
  scopes: ItemScopes = new Map()
): Promise<CallerView> {
  // An app without rules, or none bearing on the request, reads every row.
  if (!rules || personalHeaders(rules, request, settings) === undefined) return EVERYONE
  const own = rules[request.model]
  const related = relatedOf(request)
  await admit(caller, own, request.operation, settings)
  if (request.parent) await admit(caller, rules[request.parent], 'item', settings)
  const relatedScopes = new Map<string, Condition | undefined>()
  await Promise.all(
    related.map(async (model) =>
      relatedScopes.set(model, await relatedScope(caller, rules, model, scopes))
    )
  )
  const scope =
    request.operation === 'item'
      ? await itemScope(caller, rules, request.model, scopes)
      : await run(caller, ruleOf(own, request.operation, 'scope'), request.model, request.operation)
  const pageScopes = await firstPageScopes(caller, rules, request)
  // Read only when a first page is read: a refusing guard of the parent made every one "no row".
  const pageParentScope = [...pageScopes.values()].every(isNever)
    ? undefined
    : await itemScope(caller, rules, request.model, scopes)
  const hidden = new Set((await own?.hidden?.(caller)) ?? [])
  const hiddenRelated = new Map<string, ReadonlySet<string>>()
  await Promise.all(
    related.map(async (model) =>
      hiddenRelated.set(model, new Set((await rules[model]?.hidden?.(caller)) ?? []))
    )
  )
  const shownWhere = await shownOnSomeRows(caller, own, request.model, hidden)
  const shownRelated = new Map<string, ShownConditions>()
  for (const model of new Set(related))
    shownRelated.set(
      model,
      await shownOnSomeRows(caller, rules[model], model, hiddenRelated.get(model) ?? new Set())
    )
  return {
    personal: true,
    scope,
    scopeOf(model) {
      // A model the request did not name was not read: refuse rather than see every row.
      if (!relatedScopes.has(model))
        throw new TypeError(`No scope of ${model} was read for this request`)
      return relatedScopes.get(model)
    },
    pageScopeOf(model) {
      if (!pageScopes.has(model))
        throw new TypeError(`No first page of ${model} was read for this request`)
      return pageScopes.get(model)
    },
    pageParentScope,
    hidden,
    hiddenOf: (model) => hiddenRelated.get(model) ?? new Set(),
    shownWhere,
    shownWhereOf(model) {
      // A model the request did not name was not read: refuse rather than show every field.
      const shown = shownRelated.get(model)
      if (!shown) throw new TypeError(`No shownWhere rule of ${model} was read for this request`)
      return shown
    },
  }
}

const NOWHERE: ShownConditions = new Map()

/**
 * The fields of `model` its `shownWhere` rule shows the caller on some rows only, by field, each
 * condition read as a scope is (`run`): a field shown on every row (`undefined`, `{}`) is left
 * out, one `hidden` hides is hidden on every row already. A condition no row holds (`{ OR: [] }`)
 * stays: the field is then on no row.
 */
export async function shownOnSomeRows<A>(
  caller: A,
  rules: ResourceRules<ScopeWhere, string, string, A> | undefined,
  model: string,
  hidden: ReadonlySet<string>
): Promise<ShownConditions> {
  const answer = await rules?.shownWhere?.(caller)
  if (answer === undefined) return NOWHERE
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer))
    throw new TypeError(
      `The shownWhere rule of ${model} answered ${answer === null ? 'null' : typeof answer}, not an object of conditions by field`
    )
  const shown = new Map<string, Condition>()
  for (const [field, where] of Object.entries(answer)) {
    // `{ body: claims.plan }` for a token without the claim would show the field on every row.
    if (where === undefined)
      throw new TypeError(
        `The shownWhere rule of ${model} answered undefined for ${field}: leave the field out to show it on every row, or give a condition`
      )
    if (hidden.has(field)) continue
    const condition = await run(
      caller,
      () => where as ScopeWhere | undefined,
      model,
      `shownWhere.${field}`
    )
    if (condition !== undefined) shown.set(field, condition)
  }
  return shown.size === 0 ? NOWHERE : shown
}

/**
 * The scopes of the first pages a request embeds, by model: each as its sub-collection would be
 * served to the caller (the target's main collection guard and scope, the parent's item guard),
 * "no row" where a guard refuses. Guards run before scopes, as on the sub-collection's route.
 */
async function firstPageScopes<A>(
  caller: A,
  rules: ModelRules<A>,
  request: CallerRequest
): Promise<Map<string, Condition | undefined>> {
  const pages = new Map<string, Condition | undefined>()
  if (!request.pages || request.pages.length === 0) return pages
  const parentGuard = ruleOf(rules[request.model], 'item', 'guard')
  const parentRefuses = parentGuard !== undefined && (await parentGuard(caller)) !== 'allow'
  for (const model of new Set(request.pages)) {
    const guard = ruleOf(rules[model], 'collection', 'guard')
    if (parentRefuses || (guard && (await guard(caller)) !== 'allow')) {
      pages.set(model, NEVER)
      continue
    }
    const scope = ruleOf(rules[model], 'collection', 'scope')
    pages.set(model, await run(caller, scope, model, 'collection'))
  }
  return pages
}

/** Whether `operation` of `model` has a guard (its own, or the resource's). */
export function hasGuard(
  rules: ModelRules<never> | undefined,
  model: string,
  operation: string
): boolean {
  return ruleOf(rules?.[model], operation, 'guard') !== undefined
}

/** The rule of an operation: its own when it gives one (`null` included), else the resource's. */
export function ruleOf<A, K extends 'scope' | 'guard'>(
  access: ResourceRules<ScopeWhere, string, string, A> | undefined,
  operation: string,
  key: K
): OperationRules<ScopeWhere, A>[K] {
  const own = access?.operations?.[operation]
  return own && own[key] !== undefined ? own[key] : access?.[key]
}

/**
 * The related rows of `model` a caller sees through a relation (a filter, an order, exists): none
 * when its item route's guard refuses the caller, since that route would serve none of them; else
 * its item scope. The guard runs first, so a scope may rely on what the guard checked.
 */
async function relatedScope<A>(
  caller: A,
  rules: ModelRules<A>,
  model: string,
  scopes: ItemScopes
): Promise<Condition | undefined> {
  const guard = ruleOf(rules[model], 'item', 'guard')
  if (guard && (await guard(caller)) !== 'allow') return NEVER
  return itemScope(caller, rules, model, scopes)
}

/**
 * Runs a scope (undefined or null: every row) and reads its answer into the plan's conditions
 * (plan/scope-reader.ts), by the rules of logic (`{ OR: [] }`, `{ NOT: {} }`: no row). A value Prisma would read as no condition
 * (`{ tenantId: claims.tenant }` for a token without that claim, or whose claim is `{}`) would
 * select every row, and a text holding NUL is one no database compares alike: faults of the
 * scope, refused (a 500 naming the model and operation) rather than read.
 */
export async function run<A>(
  caller: A,
  scope: ScopeRule<ScopeWhere, A> | null | undefined,
  model: string,
  operation: string
): Promise<Condition | undefined> {
  if (!scope) return undefined
  const where = await scope(caller)
  if (where === undefined) return undefined
  try {
    return readWhere(where)
  } catch (error) {
    if (!(error instanceof WhereFault)) throw error
    throw new TypeError(
      `The row scope of ${model} (${operation}) answered ${error.problem} at ${error.path || 'its top'}: it is refused rather than read`,
      { cause: error }
    )
  }
}

/** The scope of `model`'s item route, read once per request. */
function itemScope<A>(
  caller: A,
  rules: ModelRules<A>,
  model: string,
  scopes: ItemScopes
): Promise<Condition | undefined> {
  let scope = scopes.get(model)
  if (!scope) {
    scope = run(caller, ruleOf(rules[model], 'item', 'scope'), model, 'item')
    scopes.set(model, scope)
  }
  return scope
}

/** What a request does with the resource a guard admits it to, as its problems say it. */
export type GuardedAction = 'read' | 'write'

/**
 * Checks the operation's guard: a 401 or 403 problem when it refuses, saying what the caller
 * would do (`action`: the generated routes read; an app's own route may write).
 */
export async function admit<A>(
  caller: A,
  access: ResourceRules<ScopeWhere, string, string, A> | undefined,
  operation: string,
  settings: AuthenticationSettings,
  action: GuardedAction = 'read'
): Promise<void> {
  const guard = ruleOf(access, operation, 'guard')
  if (!guard) return
  const answer = await guard(caller)
  if (answer === 'allow') return
  if (answer === 'unauthenticated')
    throw new HydraError(401, `Authentication is required to ${action} this resource.`, {
      headers: { 'WWW-Authenticate': settings.challenge ?? 'Bearer' },
    })
  if (answer === 'forbidden')
    throw new HydraError(403, `The caller may not ${action} this resource.`)
  throw new TypeError(`A guard answers allow, unauthenticated or forbidden, not ${String(answer)}`)
}
