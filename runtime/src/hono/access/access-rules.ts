/**
 * @module
 * The access rules as applications write them (docs/security.md): each rule a function of the
 * request's Hono context, typed by the app's own `Env` (`E`: its `Variables`), so that it reads
 * what the app's authentication middleware put there (`c.get('jwtPayload')`). The contract's
 * rules (contract/access-rules.ts) called with that context.
 */
import type { Context, Env } from 'hono'
import type {
  GuardRule,
  HiddenRule,
  ModelRules,
  ResourceRules,
  ScopeRule,
  ScopeWhere,
} from '../../contract/access-rules.js'

/**
 * The Env of rules whose app is not named: the runtime hands every rule the request's context,
 * whatever Env the app's rules declare (Hono's own `Context` default).
 */
// biome-ignore lint/suspicious/noExplicitAny: Hono's Context default, so rules of any Env fit.
type AnyEnv = any

/** A row scope: the model's Prisma `where` the caller's rows satisfy, undefined for every row. */
export type RowScope<W = ScopeWhere, E extends Env = AnyEnv> = ScopeRule<W, Context<E>>

/** An operation guard: checked before any query of the request runs. */
export type AccessGuard<E extends Env = AnyEnv> = GuardRule<Context<E>>

/** The fields of a resource the caller may not see; undefined or empty: every field. */
export type HiddenFields<F extends string = string, E extends Env = AnyEnv> = HiddenRule<
  F,
  Context<E>
>

/**
 * The rules of one resource. `O` names its collection operations (`item` is its item route);
 * `F` names the fields it may hide (not its key's: they are in every `@id`); `E` is the app's Hono
 * Env, whose `Variables` the rules read; `S` names the fields its `shownWhere` rule may show on
 * some rows only (not its links, nor a field an operation's cursor or order is ordered by).
 */
export type ResourceAccess<
  W = ScopeWhere,
  O extends string = string,
  F extends string = string,
  E extends Env = AnyEnv,
  S extends string = F,
> = ResourceRules<W, O, F, Context<E>, S>

/** The access rules of an app, by model name (`Book`). */
export type AccessRules = ModelRules<Context<AnyEnv>>
