/**
 * `@prisma-hydra/runtime/client`: the browser's and any client's side of the API, with nothing of
 * the server. A walker follows the links of a collection's pages in every paging mode, typed by
 * the generated members as `hc` or openapi-fetch types them and narrowed by `properties[]`, an
 * embedded relation to the fields asked (typed by the generated shaped member for `hc`); it can be
 * aborted, waits as a `503` asks, and throws the API's problems as HydraProblemError. Its
 * pages feed TanStack Query's infinite and paged queries (docs/clients.md). `followChanges`
 * follows a collection's change feed (docs/syncing.md).
 *
 * ```ts
 * import { hcWalker } from '@prisma-hydra/runtime/client'
 *
 * const books = hcWalker(client.books.$get)({ query: { 'properties[]': ['title'] } })
 * for await (const book of books.members()) console.log(book.title)
 * ```
 *
 * @module \@prisma-hydra/runtime/client
 */
export type { FollowOptions, ResponseLike } from './client/answer.js'
export {
  type ChangesPage,
  type FollowChangesOptions,
  followChanges,
  isTombstone,
  type Tombstone,
} from './client/changes.js'
export { type HcWalkerOptions, type HcWalkers, hcWalker } from './client/hc-walker.js'
export type { MemberOf } from './client/members-of.js'
export {
  type OpenApiResult,
  type OpenApiWalkerOptions,
  openApiWalker,
  openApiWalkers,
} from './client/openapi-walker.js'
export type { HydraPage, PageLinks } from './client/page.js'
export { type ClientProblem, HydraProblemError } from './client/problem-error.js'
export {
  type InfiniteChangesOptions,
  type InfinitePagesOptions,
  infiniteChangesOptions,
  infinitePagesOptions,
  type PageQueryContext,
  type PageQueryOptions,
  pageQueryOptions,
} from './client/query-options.js'
export type { RetryOptions } from './client/retry-after.js'
export type { SelectedEmbed, SelectedMember } from './client/selection.js'
export type {
  HydraWalker,
  SignalOptions,
  WalkerOptions,
  WalkOptions,
} from './client/walker.js'
