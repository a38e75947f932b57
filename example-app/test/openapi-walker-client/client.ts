/**
 * Walks of the example API with openapi-fetch as its users write them: types generated from
 * `/openapi.json` by openapi-typescript (`schema.d.ts`, written beside a copy of this file by
 * openapi-walker.e2e.test.ts through test/support/openapi-typescript-client.ts) and the walker of
 * `@prisma-hydra/runtime/client` following the links of each page. The test type-checks the copy
 * with tsc, then runs it against the server: a member typed otherwise than openapi-typescript
 * types it fails the check, a wrong walk fails the test.
 */
import { openApiWalker } from '@prisma-hydra/runtime/client'
import createClient from 'openapi-fetch'
import type { components, paths } from './schema.js'

type Activity = components['schemas']['Activity']
type Review = components['schemas']['Review']

export interface WalkedWithOpenApi {
  /** The activity feed's IRIs, by `next` links (cursor paging). */
  activities: string[]
  /** The same feed from its last page by `previous` links, back to the first. */
  activitiesBack: string[]
  /** The reviews' IRIs (partial paging, keys without the prefix). */
  reviews: string[]
  /** The books of author 3 (a sub-collection, full paging), two to a page. */
  authorBooks: string[]
}

export async function walkWithOpenApi(baseUrl: string): Promise<WalkedWithOpenApi> {
  const client = createClient<paths>({ baseUrl })
  const feed = openApiWalker((init) =>
    client.GET('/activities', { ...init, params: { query: { itemsPerPage: 50 } } })
  )
  const activities: string[] = []
  let last: string | undefined
  for await (const page of feed.pages()) {
    const members: Activity[] = page.members
    for (const activity of members) activities.push(activity['@id'])
    last = page.url
  }
  const activitiesBack: string[] = []
  for await (const activity of feed.members({ from: last, direction: 'previous' }))
    activitiesBack.push(activity['@id'])
  const reviews: string[] = []
  for await (const review of openApiWalker((init) => client.GET('/reviews', init)).members()) {
    const typed: Review = review
    reviews.push(typed['@id'])
  }
  const authorBooks: string[] = []
  const books = openApiWalker((init) =>
    client.GET('/authors/{id}/books', {
      ...init,
      params: { path: { id: 3 }, query: { itemsPerPage: 2 } },
    })
  )
  for await (const book of books.members()) authorBooks.push(book['@id'])
  return { activities, activitiesBack, reviews, authorBooks }
}
