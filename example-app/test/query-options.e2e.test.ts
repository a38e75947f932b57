/**
 * TanStack Query over the walker of `@prisma-hydra/runtime/client` (docs/clients.md), in Node
 * against the example app over real HTTP: `@tanstack/query-core`'s `QueryClient` and
 * `InfiniteQueryObserver` read the cursor feed page by page to its end by `next` links, and back
 * from its last page by `previous` links, each activity once, as the database orders them; a page
 * query jumps to the last page of a full-paged collection. The same options type-check as
 * `@tanstack/react-query`'s `infiniteQueryOptions` and `queryOptions` take them.
 */

import { hcWalker, infinitePagesOptions, pageQueryOptions } from '@prisma-hydra/runtime/client'
import { InfiniteQueryObserver, QueryClient } from '@tanstack/query-core'
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import { hc, type InferResponseType } from 'hono/client'
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest'
import type { ActivityMember } from '#generated/hydra/index.js'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { emptyDatabase, startServer, type TestDatabase } from './support/harness.js'

let prisma: PrismaClient
let database: TestDatabase
let origin: string
let close: () => Promise<void>
let queryClient: QueryClient

const clientOf = () => hc<ReturnType<typeof createApp>>(origin)

beforeAll(async () => {
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
  ;({ origin, close } = await startServer(createApp(prisma).fetch))
  queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
}, 120_000)

afterAll(async () => {
  queryClient?.clear()
  await close?.()
  await prisma?.$disconnect()
  await database?.remove()
})

/** The activities' IRIs in the feed's order, from the database. */
async function feedOrder(): Promise<string[]> {
  const rows = await prisma.activity.findMany({ orderBy: [{ occurredAt: 'desc' }, { id: 'desc' }] })
  return rows.map((row) => `/activities/${row.id}`)
}

describe("TanStack Query's infinite query over the cursor feed", () => {
  it('fetches next pages to the end, then previous pages from the last back', async () => {
    const feed = hcWalker(clientOf().activities.$get)({ query: { itemsPerPage: 40 } })
    const options = infinitePagesOptions(feed, ['activities', 'forward'])
    const forward = new InfiniteQueryObserver(queryClient, options)
    await forward.refetch()
    let result = forward.getCurrentResult()
    while (result.hasNextPage) result = await forward.fetchNextPage()
    const pages = result.data?.pages ?? []
    const ids = pages.flatMap((page) => page.members.map((member) => member['@id']))
    expect(ids).toEqual(await feedOrder())
    expect(result.hasPreviousPage).toBe(false)
    expectTypeOf(pages[0]?.members).toEqualTypeOf<ActivityMember[] | undefined>()

    // From the last page, by the previous links alone.
    const last = pages.at(-1)?.url ?? null
    const backward = new InfiniteQueryObserver(queryClient, {
      ...infinitePagesOptions(feed, ['activities', 'backward']),
      initialPageParam: last,
    })
    await backward.refetch()
    let back = backward.getCurrentResult()
    expect(back.hasNextPage).toBe(false)
    while (back.hasPreviousPage) back = await backward.fetchPreviousPage()
    const backIds = (back.data?.pages ?? []).flatMap((page) => page.members.map((m) => m['@id']))
    expect(backIds).toEqual(ids)
    expect(back.data?.pages.length).toBe(pages.length)
  })
})

describe("TanStack Query's query of one page", () => {
  it('jumps from the first page to the last by its link', async () => {
    const authors = hcWalker(clientOf().authors.$get)()
    const first = await queryClient.fetchQuery(pageQueryOptions(authors, ['authors']))
    const lastUrl = first.links.last
    expect(lastUrl).toBe(`${origin}/authors?page=3`)
    const last = await queryClient.fetchQuery(pageQueryOptions(authors, ['authors'], lastUrl))
    const rows = await prisma.author.findMany({ orderBy: { id: 'asc' } })
    expect(last.members.map((member) => member['@id'])).toEqual(
      rows.slice(20).map((row) => `/authors/${row.id}`)
    )
    expect(last.links.next).toBeUndefined()
    expect(queryClient.getQueryData(['authors', lastUrl])).toBe(last)
    // The members as `hc` types the route's answer.
    type Page = InferResponseType<ReturnType<typeof clientOf>['authors']['$get'], 200>
    expectTypeOf(last.members).toEqualTypeOf<Page['hydra:member']>()
  })

  it("fits @tanstack/react-query's option builders", () => {
    const feed = hcWalker(clientOf().activities.$get)()
    const infinite = infiniteQueryOptions(infinitePagesOptions(feed, ['activities']))
    expectTypeOf(infinite.queryKey).toMatchTypeOf<readonly unknown[]>()
    const page = queryOptions(pageQueryOptions(feed, ['activities'], null))
    expectTypeOf(page.queryFn).not.toBeUndefined()
    expect(infinite.initialPageParam).toBeNull()
  })
})
