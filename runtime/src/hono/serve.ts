import type { Context, Env, Input, TypedResponse } from 'hono'
import { badRequest, HydraError, isHydraError } from '../errors.js'
import {
  documentIri,
  type HydraCollection,
  type RenderOptions,
  renderCollection,
  renderCollectionChunks,
} from '../hydra/collection.js'
import { type ContextTerm, type ContextType, contextDocument } from '../hydra/context.js'
import { docsUrl } from '../hydra/documentation.js'
import type { IdKind, IdValue, Resource } from '../hydra/resource.js'
import { collectionSearch } from '../hydra/search.js'
import { parseQuery, type QueryMap } from '../iri/query-string.js'
import { DEFAULT_BATCH_SIZE, readInBatches, releaseBatch } from '../paging/batches.js'
import {
  type CustomPagingOptions,
  customPaging,
  type PagingConfig,
  type ParameterNames,
} from '../paging/config.js'
import { type CursorKey, fetchCursorPage, readCursorBound } from '../paging/cursor.js'
import { type CollectionSource, fetchCollectionPage } from '../paging/offset.js'
import { type CollectionPage, fromItems } from '../paging/page.js'
import { type CollectionResult, pageOfPaginator } from '../paging/paginators.js'
import {
  type PagingRequest,
  readEnabled,
  readItemsPerPage,
  readPagingRequest,
} from '../paging/request.js'
import {
  apiLocation,
  canonicalFor,
  jsonLdHeaders,
  mountPrefix,
  refuseUnacceptable,
} from './api-state.js'
import { validatedJsonLd } from './validated.js'

export { LD_JSON, mountPrefix } from './api-state.js'

/** A collection operation: a path of a resource with its own order and paging settings. */
export interface CollectionOperation<M, P extends boolean = boolean> {
  resource: Resource<M, IdKind>
  path: string
  paging: PagingConfig
  /** Whether Hydra keys carry the `hydra:` prefix (`hydra:member`) or not (`member`). Default true. */
  hydraPrefix?: P | undefined
  /**
   * The operation's order as a keyset key (unique together), when every field of it can be
   * compared: unpaged responses then read each batch past the last row read. Cursor-paged
   * operations use their cursor key.
   */
  orderKey?: readonly CursorKey[]
}

/**
 * Replaces the Prisma query of a generated operation: receives the checked paging request and
 * returns rows of the model (as its generated query selects them) in any form a custom handler may
 * return. The route, the parameter checks, the members and the rendering stay generated.
 */
export type CollectionProvider<Row, C extends Context = Context> = (
  request: PagingRequest,
  c: C
) => CollectionResult<Row> | Promise<CollectionResult<Row>>

export interface ServeCollectionOptions<Row> {
  /** Replaces the operation's Prisma query (offset-paged operations). */
  provider?: CollectionProvider<Row> | undefined
  /** Rows per query and per written chunk when the collection is served unpaged. Default 500. */
  batchSize?: number | undefined
}

export type JsonLdResponse<T> = Response & TypedResponse<T, 200, 'json'>

function rawQuery(url: string): string {
  const start = url.indexOf('?')
  if (start === -1) return ''
  const end = url.indexOf('#', start)
  return url.slice(start + 1, end === -1 ? undefined : end)
}

/**
 * A JSON-LD response (or JSON, as negotiated); throws the 406 error when neither is accepted.
 * `iri`, the document's main resource, is linked as canonical when the request spelled it
 * otherwise (D6).
 */
export function jsonLd<T>(c: Context, body: T, iri?: string): JsonLdResponse<T> {
  const canonical = iri === undefined ? undefined : canonicalFor(c, iri)
  return c.body(
    JSON.stringify(body),
    200,
    jsonLdHeaders(c, canonical)
  ) as unknown as JsonLdResponse<T>
}

/**
 * Serves one page of a generated collection operation: reads the paging parameters, fetches
 * (through the operation's source, or the provider that replaces it), renders. Unpaged requests
 * are streamed, read in batches (D5).
 */
export async function serveCollection<M, Row extends object, Where, P extends boolean = true>(
  c: Context,
  operation: CollectionOperation<M, P>,
  source: CollectionSource<Row, Where>,
  options: ServeCollectionOptions<Row> = {}
): Promise<JsonLdResponse<HydraCollection<M, P>>> {
  const base = mountPrefix(c)
  const { resource, paging, hydraPrefix } = operation
  try {
    refuseUnacceptable(c)
    const query = parseQuery(rawQuery(c.req.url))
    const context = `${base}/contexts/${resource.name}`
    const render = renderOptions(c, query, paging.parameters, context, hydraPrefix)
    render.search = searchOf(operation, render.path)
    const toMember = (row: Row) => resource.toMember(row, base)
    const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE
    if (options.provider && !paging.cursor) {
      const result = await options.provider(readPagingRequest(query, paging), c)
      return await respondWithResult(c, result, toMember, render, batchSize)
    }
    if (!readEnabled(query, paging)) {
      // D5: batches past the last row read, on the cursor key or the order key (offsets without one).
      const key = paging.cursor ?? operation.orderKey
      return await streamCollection(c, readInBatches(source, key, batchSize), toMember, render)
    }
    if (paging.cursor && !query.has(paging.parameters.page)) {
      const itemsPerPage = readItemsPerPage(query, paging)
      const bound = readCursorBound(query, paging.cursor)
      const page = await fetchCursorPage(source, paging.cursor, itemsPerPage, bound)
      return respondWithPage(c, page, toMember, render)
    }
    // D7: the page parameter on a cursor resource asks for that offset page of the cursor's order
    // (page-based clients such as API Platform's admin): a count and an OFFSET, as deep pages of
    // any offset-paged collection cost. A cursor position with it would mean two pages at once.
    if (paging.cursor && readCursorBound(query, paging.cursor)) {
      throw badRequest(
        `The "${paging.parameters.page}" parameter cannot be combined with a cursor position (${paging.cursor.map((key) => `${key.field}[…]`).join(', ')}).`
      )
    }
    const page = await fetchCollectionPage(source, readPagingRequest(query, paging))
    return respondWithPage(c, page, toMember, render)
  } catch (error) {
    restyle(error, { base, hydraPrefix })
  }
}

/** The search block of each operation, for the last path it was served at (nearly always one). */
const searches = new WeakMap<object, { path: string; search: Record<string, unknown> }>()

function searchOf<M, P extends boolean>(
  operation: CollectionOperation<M, P>,
  path: string
): Record<string, unknown> {
  const cached = searches.get(operation)
  if (cached?.path === path) return cached.search
  const { resource, paging, hydraPrefix } = operation
  const search = collectionSearch(resource, paging, path, hydraPrefix !== false)
  searches.set(operation, { path, search })
  return search
}

/**
 * Client errors thrown while serving (bad parameters) are written for the route: under its mount
 * path and with or without the `hydra:` prefix, as its responses are.
 */
function restyle(error: unknown, style: { base: string; hydraPrefix: boolean | undefined }): never {
  // Errors of the runtime's own checks are rewritten in the route's style; others pass as thrown.
  // (A try/catch in each route rather than a wrapper: every frame between a route and its Prisma
  // query is walked again each time Prisma records where a query was called from.)
  if (isHydraError(error) && error.constructor === HydraError)
    throw new HydraError(error.status, error.detail, {
      ...style,
      cause: error,
      headers: error.headers,
    })
  throw error
}

export interface CollectionHandlerOptions<P extends boolean = boolean> {
  /**
   * The collection's `@context`: an absolute IRI, or a path such as `/contexts/Genre`, which is
   * taken under the path the app is mounted at.
   */
  context: string
  /** Paging settings, as a generated operation has them; left-out ones take the spec's defaults. */
  paging?: CustomPagingOptions | undefined
  /** Items per written chunk when a whole collection is streamed. Default 500. */
  batchSize?: number | undefined
  /** Whether Hydra keys carry the `hydra:` prefix (`hydra:member`) or not (`member`). Default true. */
  hydraPrefix?: P | undefined
}

/**
 * A custom collection handler (spec 4.2). `handler` receives the checked paging request (page from
 * `page`, or its configured name, default 1; page size; offset = (page - 1) × page size; or an
 * unpaged request) and returns a full paginator (full view), a partial paginator (partial view),
 * an array (no view) or an iterable (no view, streamed). Checks, errors, links and rendering are
 * the generated routes' own.
 *
 * ```ts
 * app.get('/genres', hydraCollection({ context: '/contexts/Genre' }, (request) =>
 *   paginateArray(genres, request)))
 * ```
 */
export function hydraCollection<
  T,
  E extends Env = Env,
  Path extends string = string,
  // biome-ignore lint/complexity/noBannedTypes: Hono's own default for a route without input.
  I extends Input = {},
  P extends boolean = true,
>(
  options: CollectionHandlerOptions<P>,
  handler: (
    request: PagingRequest,
    c: Context<E, Path, I>
  ) => CollectionResult<T> | Promise<CollectionResult<T>>
): (c: Context<E, Path, I>) => Promise<JsonLdResponse<HydraCollection<T, P>>> {
  const paging = customPaging(options.paging, 'hydraCollection')
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE
  const { hydraPrefix } = options
  return async (c) => {
    const base = mountPrefix(c)
    try {
      refuseUnacceptable(c)
      const query = parseQuery(rawQuery(c.req.url))
      const context = options.context.startsWith('/')
        ? `${base}${options.context}`
        : options.context
      const render = renderOptions(c, query, paging.parameters, context, hydraPrefix)
      const request = readPagingRequest(query, paging)
      const result = await handler(request, c)
      return await respondWithResult(c, result, (item: T) => item, render, batchSize)
    } catch (error) {
      restyle(error, { base, hydraPrefix })
    }
  }
}

function renderOptions<P extends boolean>(
  c: Context,
  query: QueryMap,
  parameters: ParameterNames,
  context: string,
  hydraPrefix: P | undefined
): RenderOptions<P> {
  return { path: c.req.path, query, parameters, context, hydraPrefix }
}

/** One code path for every result: a paginator's page, a whole array, or a streamed sequence. */
async function respondWithResult<T, M, P extends boolean>(
  c: Context,
  result: CollectionResult<T>,
  toMember: (item: T) => M,
  render: RenderOptions<P>,
  batchSize: number
): Promise<JsonLdResponse<HydraCollection<M, P>>> {
  const page = pageOfPaginator(result)
  if (page) return respondWithPage(c, page, toMember, render)
  if (Array.isArray(result)) return respondWithPage(c, fromItems(result as T[]), toMember, render)
  return streamCollection(
    c,
    inBatches(result as Iterable<T> | AsyncIterable<T>, batchSize),
    toMember,
    render
  )
}

function respondWithPage<T, M, P extends boolean>(
  c: Context,
  page: CollectionPage<T>,
  toMember: (item: T) => M,
  render: RenderOptions<P>
): JsonLdResponse<HydraCollection<M, P>> {
  const body = renderCollection({ ...page, items: page.items.map(toMember) }, render)
  // Asked without a query, the document's main resource is the collection, by the URL asked.
  return jsonLd(c, body, render.query.size === 0 ? undefined : documentIri(page, render))
}

/** Groups a sequence into arrays of `size` items, so a streamed response writes few large chunks. */
async function* inBatches<T>(
  source: Iterable<T> | AsyncIterable<T>,
  size: number
): AsyncGenerator<T[], void, undefined> {
  let batch: T[] = []
  for await (const item of source) {
    batch.push(item)
    if (batch.length >= size) {
      yield batch
      batch = []
    }
  }
  if (batch.length > 0) yield batch
}

/**
 * The members of each batch. The batches are the runtime's own (a source's `findMany` results, or
 * groups of a custom iterable), so each is emptied once mapped: its rows then die young instead of
 * staying reachable from the query that read them (see `releaseBatch`).
 */
async function* mapBatches<T, M>(
  batches: AsyncIterable<T[]>,
  toMember: (item: T) => M
): AsyncGenerator<M[], void, undefined> {
  for await (const batch of batches) {
    const members = batch.map(toMember)
    releaseBatch(batch)
    yield members
  }
}

/**
 * Streams a whole collection (D5): members are serialized as their batch arrives, the next batch
 * is read only once the client has taken the previous ones (back-pressure), and a client that
 * disconnects cancels the stream, which ends the reads. The first batch is read before the
 * response starts, so a failure there is still an ordinary error response; a later failure
 * aborts the connection, so a client never takes a cut-off body for a whole collection.
 */
async function streamCollection<T, M, P extends boolean>(
  c: Context,
  batches: AsyncIterable<T[]>,
  toMember: (item: T) => M,
  render: RenderOptions<P>
): Promise<JsonLdResponse<HydraCollection<M, P>>> {
  const chunks = renderCollectionChunks(mapBatches(batches, toMember), render)
  const first = await chunks.next()
  const encoder = new TextEncoder()
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (first.done) controller.close()
        else controller.enqueue(encoder.encode(first.value))
      },
      async pull(controller) {
        try {
          const next = await chunks.next()
          if (next.done) controller.close()
          else controller.enqueue(encoder.encode(next.value))
        } catch (error) {
          console.error(
            'prisma-hydra: a streamed collection failed after its response began',
            error
          )
          controller.error(error)
        }
      },
      async cancel() {
        await chunks.return(undefined)
      },
    },
    { highWaterMark: 0 }
  )
  const canonical =
    render.query.size === 0
      ? undefined
      : canonicalFor(c, documentIri({ items: [], paginated: false, self: {} }, render))
  return c.body(body, 200, jsonLdHeaders(c, canonical)) as unknown as JsonLdResponse<
    HydraCollection<M, P>
  >
}

/** The JSON-LD shape of an item: its member with the resource's context. */
export type HydraItem<M> = M & { '@context': string }

/** Serves one item, or a 404 problem when the key is malformed or no row has it. */
export async function serveItem<M, K extends IdKind>(
  c: Context,
  resource: Resource<M, K>,
  findUnique: (id: IdValue<K>) => Promise<object | null>
): Promise<JsonLdResponse<HydraItem<M>>> {
  const base = mountPrefix(c)
  try {
    refuseUnacceptable(c)
    const raw = c.req.param('id') ?? ''
    const id = resource.parseId(raw)
    const row = id === undefined ? null : await findUnique(id)
    if (!row) throw new HydraError(404, `No ${resource.name} with id "${raw}".`)
    const member = resource.toMember(row, base) as Record<string, unknown>
    const item = { '@context': `${base}/contexts/${resource.name}`, ...member } as HydraItem<M>
    return jsonLd(c, item, member['@id'] as string)
  } catch (error) {
    restyle(error, { base, hydraPrefix: resource.hydraPrefix })
  }
}

export interface ContextDocument {
  '@context': Record<string, ContextTerm>
}

/**
 * Serves `/contexts/<Name>`: maps a type's fields to terms of the API's vocabulary (or the IRIs
 * they declare) and the Hydra terms, so that collections expand to Hydra's IRIs with or without
 * the `hydra:` prefix. Takes a generated resource, or the name and fields of a custom
 * collection's items.
 */
export function serveContext(c: Context, resource: ContextType): JsonLdResponse<ContextDocument> {
  return validatedJsonLd(c, contextDocument(`${docsUrl(apiLocation(c))}#`, resource))
}
