/**
 * @module
 * Who may read what (docs/security.md, DESIGN 12): the access rules an application gives
 * `createHydraApp` per resource, by model name. Each rule is a function of the request's Hono
 * context, so it reads what the app's authentication middleware put there (`c.get('jwtPayload')`).
 * Pure types; caller-view.ts reads them once per request.
 */
import type { Context } from 'hono'

type Where = Record<string, unknown>

/**
 * A row scope: the model's Prisma `where` the caller's rows satisfy, or undefined when the caller
 * may read every row. Every read of the model applies it (collections, counts, items,
 * sub-collections, filters and orders through relations, custom data providers).
 */
export type RowScope<W = Where> = (c: Context) => W | undefined | Promise<W | undefined>

/**
 * What a guard answers: `allow`, `unauthenticated` (401 with `WWW-Authenticate`: the caller should
 * authenticate) or `forbidden` (403: the caller is known and may not use the operation).
 */
export type GuardAnswer = 'allow' | 'unauthenticated' | 'forbidden'

/** An operation guard: checked before any query of the request runs. */
export type AccessGuard = (c: Context) => GuardAnswer | Promise<GuardAnswer>

/**
 * The fields of a resource the caller may not see (their filters and orders are then unknown
 * parameters for that caller); undefined or empty: every field.
 */
export type HiddenFields<F extends string = string> = (
  c: Context
) => readonly F[] | undefined | Promise<readonly F[] | undefined>

/** The rules of one operation, replacing the resource's own where given. */
export interface OperationAccess<W = Where> {
  /** The operation's scope; `null`: every row, whatever the resource's scope. */
  scope?: RowScope<W> | null | undefined
  guard?: AccessGuard | undefined
}

/**
 * The rules of one resource. `O` names its collection operations (`item` is its item route);
 * `F` names its fields.
 */
export interface ResourceAccess<W = Where, O extends string = string, F extends string = string> {
  /** The rows the caller may read, on every route and through every relation. */
  scope?: RowScope<W> | undefined
  /** Checked on every route of the resource (collections, items, sub-collections). */
  guard?: AccessGuard | undefined
  /** Rules of one operation where they differ from the resource's. */
  operations?: { [Name in O | 'item']?: OperationAccess<W> | undefined } | undefined
  /** Fields the caller may not see. */
  hidden?: HiddenFields<F> | undefined
}

/** The access rules of an app, by model name (`Book`). */
export type AccessRules = { readonly [model: string]: ResourceAccess | undefined }

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
}
