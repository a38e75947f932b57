/**
 * @module
 * The caller of a request as the routes read it: the access rules called with the request's
 * context (data/caller-view.ts), each model's item scope read once per request, and the request
 * marked personal (the headers its answer varies by) before any rule runs, for the HTTP cache
 * headers (http-cache.ts, caller-headers.ts).
 */
import type { Context } from 'hono'
import { getCookie } from 'hono/cookie'
import type { AuthenticationSettings } from '../../contract/access-rules.js'
import {
  anyFieldTag,
  type CacheTagHeader,
  type CacheTagSettings,
} from '../../contract/cache-tags.js'
import { sameForAnonymous } from '../../data/anonymous-answer.js'
import {
  type CallerRequest,
  type CallerView,
  callerView,
  type ItemScopes,
  personalHeaders,
} from '../../data/caller-view.js'
import type { DataAccess } from '../../data/data-access.js'
import type { AccessRules } from './access-rules.js'
import { checkedAccess } from './credentials-check.js'

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
  /** The header naming what answers show, for a CDN to purge (docs/caching.md); none left out. */
  cacheTags?: CacheTagSettings | undefined
}

/** The context variable holding the models the request read, for its cache tags. */
const TAGS = 'prisma-hydra cache tags'

/**
 * What a request read, for its cache tags (response/cache-tags.ts), and the header they go in:
 * `selection`, the models whose rows decide which rows it shows (a collection's own model, its
 * filters' and orders' targets, its parent, the first pages it embeds, every model a scope
 * reaches), and `shown`, the models whose rows it shows (an item's own row and its embeds too).
 */
export interface ModelsRead {
  header: CacheTagHeader
  selection: Set<string>
  shown: Set<string>
  /**
   * The tags of the fields its selection reads (`Book.genre`; `Book.*` for a model whose fields
   * it reads are not named, as an embedded first page's): what an update of those fields purges.
   */
  fields: Set<string>
  /** The models it lists as collections (`Book` on `/books`, `/authors/1/books`). */
  collections: Set<string>
  /** Those of `collections` whose selection's fields were noted (notePlanFields). */
  planned: Set<string>
  /**
   * The models of `selection` read otherwise than as the rows a collection lists: its filters'
   * and orders' targets, its parent, its embedded first pages, its scopes' relations. Their pages
   * are tagged `Book:any`, whatever their conditions.
   */
  reached: Set<string>
  /**
   * By collection model, the value tags of its selection (data/value-tags.ts), or null where one
   * of its selections is narrowed by no equality (it is tagged `Book:any`).
   */
  narrowed: Map<string, Set<string> | null>
  /**
   * The tags of the rows its to-one links are written from where the related row holds the
   * foreign key (data/held-links.ts): `ArticleBody` and `ArticleBody:articleId=2` on an article.
   */
  linked: Set<string>
}

/** The models this request read, when the app tags its answers. */
export function modelsRead(c: Context): ModelsRead | undefined {
  return c.get(TAGS)
}

/** Notes that this request reads the models of `request`, when the app tags its answers. */
function noteModels(c: Context, settings: CacheTagSettings | undefined, request: CallerRequest) {
  if (!settings) return
  let read = modelsRead(c)
  if (!read) {
    read = {
      header: settings.header ?? 'Cache-Tag',
      selection: new Set(),
      shown: new Set(),
      fields: new Set(),
      collections: new Set(),
      planned: new Set(),
      reached: new Set(),
      narrowed: new Map(),
      linked: new Set(),
    }
    c.set(TAGS, read)
  }
  const { model, related = [], parent, pages = [] } = request
  const named = [model, ...related, ...(parent ? [parent] : []), ...pages]
  for (const name of named) read.shown.add(name)
  // An item shows one row, and the rows its relations embed: a write of another row of their
  // models leaves it as it was. A collection's rows, and those of any first page it embeds, are
  // chosen among all of their model's, and by its filters' targets and its parent.
  for (const name of request.operation === 'item' ? pages : named) read.selection.add(name)
  const others = [...related, ...(parent ? [parent] : []), ...pages]
  for (const name of request.operation === 'item' ? pages : others) read.reached.add(name)
  if (request.operation !== 'item') read.collections.add(model)
  // A first page's order and its own conditions are not walked: any update of its model may
  // change which rows it holds.
  for (const name of pages) read.fields.add(anyFieldTag(name))
}

/**
 * Notes the tags of the fields the selection of this request's page of `model` reads (its
 * filters, order and parent: DataAccess.selectionFields), when the app tags its answers. A page
 * of a collection whose fields are not noted (a custom provider's) is tagged `Book.*`. `values`
 * are its value tags (data/value-tags.ts), undefined where no equality narrows it.
 */
export function notePlanFields(
  c: Context,
  model: string,
  fields: ReadonlySet<string>,
  values?: readonly string[] | undefined
): void {
  const read = modelsRead(c)
  if (!read) return
  read.planned.add(model)
  for (const field of fields) read.fields.add(field)
  // Every selection of the model read for the answer narrows it, or none does.
  const noted = read.narrowed.get(model)
  if (!values || noted === null) read.narrowed.set(model, null)
  else read.narrowed.set(model, new Set([...(noted ?? []), ...values]))
}

/**
 * Notes the tags of the related rows this request's answer writes links from (data/held-links.ts),
 * when the app tags its answers.
 */
export function noteLinkedRows(c: Context, tags: readonly string[]): void {
  const read = modelsRead(c)
  if (read) for (const tag of tags) read.linked.add(tag)
}

/** How the answer to a request a rule bore on depends on the caller. */
export interface CallerAnswer {
  /** The request headers the answer varies by (`Authorization`, `Cookie`). */
  vary: readonly string[]
  /**
   * Whether a shared cache may keep it: the request is anonymous and every rule bearing on it
   * reads only the caller's credentials (docs/caching.md), so every anonymous caller gets it.
   */
  shared: boolean
}

/**
 * The request headers this request's answer varies by when a rule bore on it (whatever the
 * answer: a page, a 404, a 401), or undefined when it does not depend on the caller.
 */
export function personalVary(c: Context): readonly string[] | undefined {
  return callerAnswer(c)?.vary
}

/** How this request's answer depends on its caller; undefined when no rule bore on it. */
export function callerAnswer(c: Context): CallerAnswer | undefined {
  return c.get(PERSONAL)
}

/**
 * Whether the request carries none of the credentials a caller is known by: none of the `vary`
 * headers, and, when the app names its session cookies, a `Cookie` header holding none of them.
 * An app naming no header has no anonymous request: the cache cannot tell its callers apart.
 */
export function isAnonymous(
  c: Context,
  vary: readonly string[],
  settings?: AuthenticationSettings
) {
  if (vary.length === 0) return false
  const sessions = settings?.sessionCookies
  return vary.every((name) => {
    const value = c.req.header(name)
    if (value === undefined) return true
    if (name.toLowerCase() !== 'cookie' || sessions === undefined) return false
    const cookies = getCookie(c)
    return sessions.every((session) => cookies[session] === undefined)
  })
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
  const { authentication } = options
  const access = checkedAccess(options.access, authentication)
  noteModels(c, options.cacheTags, request)
  const vary = personalHeaders(access, request, authentication)
  if (vary) {
    // Once a request is known to be private (an earlier read of the same request), it stays so.
    const shared =
      callerAnswer(c)?.shared !== false &&
      isAnonymous(c, vary, authentication) &&
      sameForAnonymous(access, request)
    c.set(PERSONAL, { vary, shared } satisfies CallerAnswer)
  }
  return callerView<Context>(c, access, request, authentication, itemScopes(c))
}

/**
 * The caller's view of a request as `rows` reads with it (requestCaller, then the resource's
 * check of its scope), with every model it reads under that view noted for its cache tags: the
 * models its scopes reach through relations too (data/read-models.ts), so that a write of any of
 * them purges the answer.
 */
export async function readingCaller(
  c: Context,
  options: CallerOptions,
  rows: Pick<DataAccess<object>, 'caller' | 'reads'>,
  request: CallerRequest
): Promise<CallerView> {
  const view = rows.caller(await requestCaller(c, options, request), request)
  const read = modelsRead(c)
  if (read)
    for (const model of rows.reads(request, view, read.fields)) {
      read.selection.add(model)
      read.reached.add(model)
    }
  return view
}
