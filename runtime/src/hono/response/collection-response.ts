/**
 * @module
 * Writing a collection as the response: a page rendered as one document, or a whole collection
 * streamed as its batches are read (docs/paging.md#d5).
 */
import type { Context } from 'hono'
import type { ParameterNames } from '../../contract/paging.js'
import { isOutage, isReadConflict, type OutageLog } from '../../database/outage.js'
import { HydraError } from '../../errors.js'
import {
  documentIri,
  type HydraCollection,
  type RenderOptions,
  renderCollectionChunks,
  viewLinks,
} from '../../hydra/collection.js'
import type { PageDocument } from '../../hydra/page-document.js'
import { pageSearch } from '../../hydra/search.js'
import { viewLinkHeader } from '../../hydra/view-link-header.js'
import { isTruncated, MAX_INPUT_VARS, parseQuery, type QueryMap } from '../../iri/query-string.js'
import { type HydraLogger, loggerOf } from '../../observe/logger.js'
import { releaseBatch } from '../../paging/batches.js'
import type { CollectionContent } from '../../paging/strategy.js'
import { apiState, canonicalFor, jsonLdHeaders } from '../request/request-state.js'
import { cacheTagHeader } from './cache-tags.js'
import { cachingHeaders, unvalidatedAnswer } from './http-cache.js'
import { asJsonLd, type JsonLdResponse, jsonLdText } from './json-ld.js'
import { cutStream } from './stream-cut.js'
import { yieldBetweenBatches } from './stream-yield.js'

/**
 * The request's query string, parsed as the reference parses it; a 400 when it has more
 * parameters than the parser reads (the rest, a `page=0` among them, would be silently ignored).
 */
export function requestQuery(c: Context): QueryMap {
  const url = c.req.url
  const start = url.indexOf('?')
  if (start === -1) return parseQuery('')
  const end = url.indexOf('#', start)
  const query = parseQuery(url.slice(start + 1, end === -1 ? undefined : end))
  if (isTruncated(query)) {
    throw new HydraError(
      400,
      `The query string has more than ${MAX_INPUT_VARS} parameters; this API reads no more.`
    )
  }
  return query
}

/** How a collection of this request is rendered: its path, query, parameter names and context. */
export function renderOptions<P extends boolean>(
  c: Context,
  query: QueryMap,
  parameters: ParameterNames,
  context: string,
  hydraPrefix: P | undefined
): RenderOptions<P> {
  return { path: c.req.path, query, parameters, context, hydraPrefix }
}

/**
 * How a streamed collection runs: the outage log of the database its batches are read from, and
 * its pause between batches.
 */
export interface StreamOptions {
  /** Where an outage met after the response began is logged (once per episode). */
  outages: OutageLog
  /** Default true (ResourceAppOptions). */
  streamYield?: boolean | undefined
  /** The operation's `Cache-Control`, if any (http-cache.ts). */
  cacheControl?: string | undefined
  /** Where a failure after the response began is logged (the app's logger). */
  logger?: HydraLogger | undefined
}

/** What writes an operation's collections: its page writer, and its `hydra:search` block. */
export interface CollectionWriter {
  document: PageDocument
  search(path: string): Record<string, unknown> | undefined
}

/** The response for a collection's content: its page written, or every item streamed. */
export function respondWithContent<T, M, P extends boolean>(
  c: Context,
  content: CollectionContent<T>,
  toMember: (item: T) => M,
  render: RenderOptions<P>,
  stream: StreamOptions,
  writer: CollectionWriter
): JsonLdResponse<HydraCollection<M, P>> | Promise<JsonLdResponse<HydraCollection<M, P>>> {
  const { page } = content
  if (page) {
    const { path, query, context } = render
    const view = viewLinks(page, render)
    // Asked without a query, the page is the collection's entry page: the one with the template.
    const entry = query.size === 0
    const text = writer.document(page, page.items.map(toMember), { path, context, view, entry })
    // Asked without a query, the document's main resource is the collection, by the URL asked.
    const iri = entry ? undefined : view ? view(page.self) : path
    // The view's links again as `Link` headers, for clients that page without reading the body.
    const pages = view ? viewLinkHeader(page, view, apiState(c).origin) : undefined
    return jsonLdText<HydraCollection<M, P>>(c, text, iri, stream.cacheControl, pages)
  }
  render.search = pageSearch(writer.search(render.path), render.path, render.query.size === 0)
  return streamCollection(c, content.batches, toMember, render, stream)
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
 * Streams a whole collection (docs/paging.md#d5): members are serialized as their batch arrives,
 * the next batch is read only once the client has taken the previous ones (back-pressure), and a
 * client that disconnects cancels the stream, which ends the reads and closes the source; nothing
 * is written or logged after that. The first batch is read before the response starts, so a
 * failure there is still an ordinary error response; a later failure aborts the connection, so a
 * client never takes a cut-off body for a whole collection. Between batches the stream lets other
 * work run: on a synchronous driver (better-sqlite3) a client reading fast over loopback would
 * otherwise hold the event loop for the whole collection.
 */
async function streamCollection<T, M, P extends boolean>(
  c: Context,
  batches: AsyncIterable<T[]>,
  toMember: (item: T) => M,
  render: RenderOptions<P>,
  { streamYield, cacheControl, outages, logger }: StreamOptions
): Promise<JsonLdResponse<HydraCollection<M, P>>> {
  const chunks = renderCollectionChunks(mapBatches(batches, toMember), render)
  const first = await chunks.next()
  const canonical =
    render.query.size === 0
      ? undefined
      : canonicalFor(c, documentIri({ items: [], paginated: false, self: {} }, render))
  const headers = jsonLdHeaders(c, canonical)
  // No validator: the body's bytes are known only once the last is sent (docs/hydra.md#http-caching).
  let conditional: Response | undefined
  try {
    const type = headers['Content-Type'] as string
    conditional = unvalidatedAnswer(c, type, { Link: headers.Link as string }, cacheControl)
  } catch (error) {
    await chunks.return(undefined)
    throw error
  }
  if (conditional) {
    await chunks.return(undefined)
    return asJsonLd<HydraCollection<M, P>>(conditional)
  }
  const encoder = new TextEncoder()
  let cancelled = false
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (first.done) controller.close()
        else controller.enqueue(encoder.encode(first.value))
      },
      async pull(controller) {
        try {
          await yieldBetweenBatches(streamYield !== false)
          if (cancelled) return
          const next = await chunks.next()
          // The client may have gone while the batch was read: nothing more is written.
          if (cancelled) return
          if (next.done) controller.close()
          else controller.enqueue(encoder.encode(next.value))
        } catch (error) {
          if (cancelled) return
          // An outage starts its episode, if none has (the stream is no 503 of it); every failure
          // is logged with its cause.
          if (isOutage(error) && !isReadConflict(error)) outages.interrupted(error)
          const { method, path } = c.req
          loggerOf(logger)({
            level: 'error',
            message: `${method} ${path} failed after its streamed response began; cutting the connection`,
            fields: { event: 'stream.error', method, path, error },
          })
          cutStream(c, controller, error)
        }
      },
      async cancel() {
        cancelled = true
        await chunks.return(undefined)
      },
    },
    { highWaterMark: 0 }
  )
  const caching = cachingHeaders(c, cacheControl)
  // A stream's members are not known before its headers leave: its models alone name it.
  const tags = cacheTagHeader(c, caching['Cache-Control'] ?? headers['Cache-Control'])
  const streamed: Response = c.body(body, 200, { ...headers, ...caching, ...tags })
  return asJsonLd<HydraCollection<M, P>>(streamed)
}
