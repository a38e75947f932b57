/**
 * @module
 * A page of a change feed (docs/syncing.md): its document (the members and tombstones, the view's
 * `next` to resume from, `upToDate`) and its caching: fresh and shared as the page's kind and its
 * caller allow, tagged by its rows when it is not up to date.
 */
import type { Context } from 'hono'
import type { IdKind } from '../../contract/keys.js'
import type { Resource } from '../../contract/resource.js'
import { hydraTerm } from '../../terms.js'
import { modelsRead } from '../access/request-caller.js'
import { mountPrefix } from '../request/location.js'
import { jsonLd } from './json-ld.js'

/**
 * Seconds a page that is not up to date is fresh: the entries it tells are read for good, and a
 * later change of a row it shows is told by a later page (and purges it by the row's IRI tag).
 */
const CLOSED_SECONDS = 3_600
/**
 * Seconds the page that is up to date is fresh: the callers waiting at one position ask one URL,
 * which reaches the app once a second at most, and is never served older (no grace).
 */
const TAIL_SECONDS = 1

/** Who a page is for, as its caching reads it. */
export interface PageCaching {
  /** The caller is told of every row (no scope): one URL a position. */
  toldAll: boolean
  /** The request carries none of the credentials a caller is known by. */
  anonymous: boolean
}

/**
 * The `Cache-Control` of a page: for a caller told of every row (one URL a position), fresh as the
 * page's kind allows, shared only when the request is anonymous and the collection's rules share
 * the answer (http-cache.ts makes it `private` where they do not; a request with credentials no
 * rule reads may be an app's own authentication); for a scoped caller, whose URLs are its own,
 * stored by no cache.
 */
function pageCaching({ toldAll, anonymous }: PageCaching, upToDate: boolean): string {
  if (!toldAll) return 'private, no-store'
  const seconds = upToDate ? TAIL_SECONDS : CLOSED_SECONDS
  const grace = 'stale-while-revalidate=0'
  return anonymous
    ? `public, max-age=${seconds}, s-maxage=${seconds}, ${grace}`
    : `private, max-age=${seconds}, ${grace}`
}

/**
 * A page that is not up to date shows the rows its entries name, chosen by the log, not by a
 * query of the table: its tags are its rows' (their IRIs, `Note:rows`), so that an insert or an
 * update of another row purges it no more than it changes it. The tail keeps the collection's.
 */
function closedPageTags(c: Context): void {
  const read = modelsRead(c)
  if (!read) return
  read.selection.clear()
  read.fields.clear()
  read.collections.clear()
}

/** The feed's document: its members, the link to resume from and whether the client is up to date. */
export function feedPage(
  c: Context,
  resource: Resource<unknown, IdKind>,
  members: unknown[],
  token: string,
  upToDate: boolean,
  caching: PageCaching
): Response {
  const term = (name: string) => hydraTerm(name, resource.hydraPrefix !== false)
  const url = new URL(c.req.url)
  const self = `${url.pathname}${url.search}`
  url.searchParams.set('since', token)
  const document = {
    '@context': `${mountPrefix(c)}/contexts/${resource.name}`,
    '@id': self,
    '@type': term('Collection'),
    [term('member')]: members,
    [term('view')]: {
      '@id': self,
      '@type': term('PartialCollectionView'),
      [term('next')]: `${url.pathname}${url.search}`,
    },
    upToDate,
  }
  if (!upToDate) closedPageTags(c)
  return jsonLd(c, document, undefined, pageCaching(caching, upToDate))
}
