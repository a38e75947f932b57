import type { Context, TypedResponse } from 'hono'
import { basePath } from 'hono/route'
import { HydraError } from '../errors.js'
import { type HydraCollection, renderCollection } from '../hydra/collection.js'
import type { IdKind, IdValue, Resource } from '../hydra/resource.js'
import { parseQuery, type QueryMap } from '../iri/query-string.js'
import type { PagingConfig } from '../paging/config.js'
import { fetchCursorPage, readCursorBound } from '../paging/cursor.js'
import { type CollectionSource, fetchCollectionPage } from '../paging/offset.js'
import { fromItems } from '../paging/page.js'
import { readEnabled, readItemsPerPage, readPagingRequest } from '../paging/request.js'

export const LD_JSON = 'application/ld+json; charset=utf-8'

/** A collection operation: a path of a resource with its own order and paging settings. */
export interface CollectionOperation<M> {
  resource: Resource<M, IdKind>
  path: string
  paging: PagingConfig
}

export type JsonLdResponse<T> = Response & TypedResponse<T, 200, 'json'>

/** The path prefix the app is mounted under: '' at the root, '/api' under `app.route('/api', ...)`. */
export function mountPrefix(c: Context): string {
  const base = basePath(c)
  return base === '/' ? '' : base.replace(/\/$/, '')
}

function rawQuery(url: string): string {
  const start = url.indexOf('?')
  if (start === -1) return ''
  const end = url.indexOf('#', start)
  return url.slice(start + 1, end === -1 ? undefined : end)
}

export function jsonLd<T>(c: Context, body: T): JsonLdResponse<T> {
  return c.body(JSON.stringify(body), 200, {
    'Content-Type': LD_JSON,
  }) as unknown as JsonLdResponse<T>
}

/** Serves one page of a collection: reads the paging parameters, fetches, renders. */
export async function serveCollection<M, Row extends object, Where>(
  c: Context,
  operation: CollectionOperation<M>,
  source: CollectionSource<Row, Where>
): Promise<JsonLdResponse<HydraCollection<M>>> {
  const query = parseQuery(rawQuery(c.req.url))
  const page = await fetchPage(query, operation.paging, source)
  const base = mountPrefix(c)
  const { resource } = operation
  const members = page.items.map((row) => resource.toMember(row, base))
  return jsonLd(
    c,
    renderCollection(
      { ...page, items: members },
      {
        path: c.req.path,
        query,
        parameters: operation.paging.parameters,
        context: `${base}/contexts/${resource.name}`,
      }
    )
  )
}

/** Reads the request's paging parameters and runs the strategy they and the operation select. */
async function fetchPage<Row extends object, Where>(
  query: QueryMap,
  paging: PagingConfig,
  source: CollectionSource<Row, Where>
) {
  if (!paging.cursor) return fetchCollectionPage(source, readPagingRequest(query, paging))
  if (!readEnabled(query, paging)) return fromItems(await source.findMany({}))
  const itemsPerPage = readItemsPerPage(query, paging)
  return fetchCursorPage(source, paging.cursor, itemsPerPage, readCursorBound(query, paging.cursor))
}

/** The JSON-LD shape of an item: its member with the resource's context. */
export type HydraItem<M> = M & { '@context': string }

/** Serves one item, or a 404 problem when the key is malformed or no row has it. */
export async function serveItem<M, K extends IdKind>(
  c: Context,
  resource: Resource<M, K>,
  findUnique: (id: IdValue<K>) => Promise<object | null>
): Promise<JsonLdResponse<HydraItem<M>>> {
  const raw = c.req.param('id') ?? ''
  const id = resource.parseId(raw)
  const row = id === undefined ? null : await findUnique(id)
  if (!row) throw new HydraError(404, `No ${resource.name} with id "${raw}".`)
  const base = mountPrefix(c)
  const member = resource.toMember(row, base) as Record<string, unknown>
  return jsonLd(c, { '@context': `${base}/contexts/${resource.name}`, ...member } as HydraItem<M>)
}

export interface ContextDocument {
  '@context': Record<string, string>
}

/** Serves `/contexts/<Model>`: maps the resource's fields to terms of the API's vocabulary. */
export function serveContext<M>(
  c: Context,
  resource: Resource<M, IdKind>
): JsonLdResponse<ContextDocument> {
  const base = mountPrefix(c)
  const origin = new URL(c.req.url).origin
  const context: Record<string, string> = {
    '@vocab': `${origin}${base}/docs.jsonld#`,
    hydra: 'http://www.w3.org/ns/hydra/core#',
  }
  for (const field of resource.fields) context[field.name] = `${resource.name}/${field.name}`
  return jsonLd(c, { '@context': context })
}
