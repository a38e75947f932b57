/**
 * @module
 * Who may read what (docs/security.md): the access rules an application gives `createHydraApp`
 * per resource, by model name. Each rule is a function of what the caller is known by (`A`):
 * the request's Hono context, as hono/access/access-rules.ts types the rules apps write, so that a rule
 * reads what the app's authentication middleware put there. The layers below HTTP call the rules
 * with that value without reading it. Pure types.
 */

/**
 * A row scope's condition as users write it: Prisma's `where` syntax (docs/security.md). Only
 * its one reader (plan/scope-reader.ts) looks inside; the `prisma` engine's writer writes it back
 * from the plan.
 */
export type ScopeWhere = Record<string, unknown>

/**
 * A row scope: the model's Prisma `where` the caller's rows satisfy, or undefined when the caller
 * may read every row. Every read of the model applies it (collections, counts, items,
 * sub-collections, filters and orders through relations, custom data providers).
 */
export type ScopeRule<W, A> = (caller: A) => W | undefined | Promise<W | undefined>

/**
 * What a guard answers: `allow`, `unauthenticated` (401 with `WWW-Authenticate`: the caller should
 * authenticate) or `forbidden` (403: the caller is known and may not use the operation).
 */
export type GuardAnswer = 'allow' | 'unauthenticated' | 'forbidden'

/** An operation guard: checked before any query of the request runs. */
export type GuardRule<A> = (caller: A) => GuardAnswer | Promise<GuardAnswer>

/**
 * The fields of a resource the caller may not see (their filters and orders are then unknown
 * parameters for that caller); undefined or empty: every field.
 */
export type HiddenRule<F extends string, A> = (
  caller: A
) => readonly F[] | undefined | Promise<readonly F[] | undefined>

/**
 * The fields of a resource shown only on some rows (docs/security.md#fields-shown-on-some-rows): by
 * field, the condition (the scope syntax, `W`) a row must hold for the caller to see that field of
 * it; a field not named is shown on every row the caller sees. Undefined: every field on every row.
 */
export type ShownWhereRule<W, F extends string, A> = (
  caller: A
) => ShownWhere<W, F> | undefined | Promise<ShownWhere<W, F> | undefined>

/** By field, the condition of the rows that show it (ShownWhereRule's answer). */
export type ShownWhere<W, F extends string> = { readonly [Field in F]?: W }

/** The rules of one operation, replacing the resource's own where given. */
export interface OperationRules<W, A> {
  /** The operation's scope; `null`: every row, whatever the resource's scope. */
  scope?: ScopeRule<W, A> | null | undefined
  /** The operation's guard, replacing the resource's. */
  guard?: GuardRule<A> | undefined
}

/**
 * The rules of one resource. `O` names its collection operations (`item` is its item route);
 * `F` names the fields it may hide (not its key's: they are in every `@id`); `S` those it may show
 * on some rows only (not its links, nor a field an operation's cursor or order is ordered by).
 */
export interface ResourceRules<W, O extends string, F extends string, A, S extends string = F> {
  /** The rows the caller may read, on every route and through every relation. */
  scope?: ScopeRule<W, A> | undefined
  /** Checked on every route of the resource (collections, items, sub-collections). */
  guard?: GuardRule<A> | undefined
  /** Rules of one operation where they differ from the resource's. */
  operations?: { [Name in O | 'item']?: OperationRules<W, A> | undefined } | undefined
  /** Fields the caller may not see. */
  hidden?: HiddenRule<F, A> | undefined
  /** Fields the caller sees only on the rows where a condition holds (a premium article's body). */
  shownWhere?: ShownWhereRule<W, S, A> | undefined
  /**
   * What the resource's rules read of the request (docs/caching.md). `credentials`: they read
   * only what the caller authenticates with (the `authentication.vary` headers and what the app's
   * middleware derives from them, a token's claims), so that every request without credentials
   * gets the same answer, which a shared cache may then keep (`Cache-Control` as the
   * `cacheHeaders` annotation says). Left out: the rules may read anything of the request, and
   * every answer they bear on is `private`.
   */
  reads?: RuleInputs | undefined
}

/**
 * What an access rule reads of the request: `credentials`, only what the caller authenticates
 * with (ResourceRules' `reads`).
 */
export type RuleInputs = 'credentials'

/**
 * The rules of an app by model name (`Book`), called with `A`. `ModelRules<never>` is any app's
 * rules, read for what they declare without calling them (the documentation's guarded routes).
 */
export type ModelRules<A> = {
  readonly [model: string]: ResourceRules<ScopeWhere, string, string, A> | undefined
}

/**
 * The fields the `hidden` rule of `R` (a resource's rules, as the app's value types them) may
 * hide: the ones its answers name (`(c) => (admin(c) ? [] : ['email'])`: `email`), or every field
 * the rule's type allows when it names none in particular (rules typed `HydraAccess`); none
 * without a `hidden` rule. With the fields its `shownWhere` rule's answers name, absent from the
 * rows where their condition does not hold.
 */
export type HiddenByRule<R> = HiddenByList<R> | ShownOnSomeRows<R>

/** The fields the `hidden` rule of `R` names. */
type HiddenByList<R> = R extends {
  /** The resource's `hidden` rule. */
  hidden?: infer H
}
  ? H extends (...args: never[]) => infer Answer
    ? Awaited<Answer> extends infer Fields
      ? Fields extends readonly (infer F extends string)[]
        ? F
        : never
      : never
    : never
  : never

/** The fields the `shownWhere` rule of `R` names: shown only on some rows. */
type ShownOnSomeRows<R> = R extends {
  /** The resource's `shownWhere` rule. */
  shownWhere?: infer S
}
  ? S extends (...args: never[]) => infer Answer
    ? Awaited<Answer> extends infer Shown
      ? Shown extends object
        ? keyof Shown & string
        : never
      : never
    : never
  : never

/** The fields the rules `A` (an app's `access`) may hide of the resource `Model`. */
export type HiddenBy<A, Model extends string> = A extends { readonly [K in Model]?: infer R }
  ? HiddenByRule<R>
  : never

/**
 * How responses that depend on the caller are marked, and how a 401 asks for credentials
 * (createHydraApp's `authentication`).
 */
export interface AuthenticationSettings {
  /** The `WWW-Authenticate` challenge of a 401 (default `Bearer`). */
  challenge?: string | undefined
  /**
   * The request headers the caller is known by, listed in `Vary` of every response that depends on
   * the caller (default `Authorization` and `Cookie`).
   */
  vary?: readonly string[] | undefined
  /**
   * The names of the cookies that authenticate a caller (`session`), when `Cookie` is one of the
   * `vary` headers: a request carrying none of them (and none of the other `vary` headers) is
   * anonymous, and may get an answer a shared cache keeps (docs/caching.md). Left out: any
   * `Cookie` header makes a request authenticated.
   */
  sessionCookies?: readonly string[] | undefined
  /**
   * The issuers of the OAuth authorization servers whose tokens the API takes, listed as
   * `authorization_servers` by its protected-resource metadata (RFC 9728), which a `Bearer`
   * `challenge` serves at `/.well-known/oauth-protected-resource` (docs/security.md).
   */
  authorizationServers?: readonly string[] | undefined
}
