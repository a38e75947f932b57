/**
 * @module
 * Following a collection's change feed (docs/syncing.md#a-clients-loop): from a `next` link kept
 * from the feed's last page, every page up to date, each with the members as they are now and the
 * tombstones of rows that left the caller's view, in the order to apply them. A feed that no
 * longer holds the changes after the link answers `410`, thrown as a HydraProblemError: read the
 * collection again and start over from the feed's own URL.
 */
import { type FollowOptions, follow, sendWithRetries } from './answer.js'
import { readPage } from './page.js'
import type { RetryOptions } from './retry-after.js'
import type { SignalOptions } from './walker.js'

/** A row that left the caller's view (deleted, or out of its scope): its IRI and nothing else. */
export interface Tombstone {
  /** The IRI the copy holds the row under. */
  readonly '@id': string
  /** Always `Deleted`. */
  readonly '@type': 'Deleted'
}

/** One page of a feed. */
export interface ChangesPage<M> {
  /** The absolute URL that answered it. */
  readonly url: string
  /** Members (each replacing what the copy holds at its `@id`) and tombstones, in order. */
  readonly changes: (M | Tombstone)[]
  /** Where to resume: the view's `next`, absolute. Keep the last page's. */
  readonly next: string
  /** Whether nothing more is readable now: ask `next` later rather than at once. */
  readonly upToDate: boolean
}

/**
 * How the feed's requests are sent: fetch, headers (an `Authorization`, sent to the feed's origin
 * only: a `next` of another origin is an error), retries, signal.
 */
export interface FollowChangesOptions extends FollowOptions, RetryOptions, SignalOptions {}

/** Whether a change of a feed's page is a tombstone. */
export const isTombstone = <M>(change: M | Tombstone): change is Tombstone =>
  typeof change === 'object' &&
  change !== null &&
  (change as { '@type'?: unknown })['@type'] === 'Deleted'

/**
 * The pages of the feed from `from` (the feed's URL, `/books/changes`, for the token of now and
 * no change; or a `next` kept from an earlier page) until one is up to date, each requested as
 * soon as the one before it is applied. `M` is the collection's member type.
 *
 * @example
 * ```ts
 * let next = 'https://api.example.com/books/changes'
 * for await (const page of followChanges(next)) next = page.next // the token of now
 * // ...read the collection into the copy, then, every minute:
 * for await (const page of followChanges<Book>(next)) {
 *   for (const change of page.changes)
 *     if (isTombstone(change)) copy.delete(change['@id'])
 *     else copy.set(change['@id'], change)
 *   next = page.next
 * }
 * ```
 */
export async function* followChanges<M>(
  from: string | URL,
  options: FollowChangesOptions = {}
): AsyncGenerator<ChangesPage<M>, void, undefined> {
  let url = String(from)
  // A path (`/notes/changes`) is the page's own origin's, in a browser.
  const origin = new URL(url, globalThis.location?.href).origin
  for (;;) {
    const page = await changesPage<M>(url, origin, options)
    yield page
    if (page.upToDate) return
    url = page.next
  }
}

/**
 * The page of a feed at `url`, its `next` checked to stay on `origin` (the headers given, an
 * `Authorization`, go there only) and to move on unless the page is up to date.
 */
export async function changesPage<M>(
  url: string,
  origin: string,
  options: FollowChangesOptions
): Promise<ChangesPage<M>> {
  const answer = await sendWithRetries(follow(url, options), options.signal, options)
  const page = readPage<M | Tombstone, unknown>(answer.url || url, answer.body)
  const next = page.links.next
  if (next === undefined) throw new TypeError(`${page.url} answered no change feed: no next link`)
  if (new URL(next).origin !== origin)
    throw new TypeError(`${page.url} links its next page to another origin: ${next}`)
  const upToDate = (page.document as { upToDate?: unknown }).upToDate === true
  if (!upToDate && next === page.url)
    throw new TypeError(`${page.url} links to itself as its next page without being up to date`)
  return { url: page.url, changes: page.members, next, upToDate }
}
