import { hydraErrorHandler, hydraNotFound } from '@prisma-hydra/runtime'
import { Hono } from 'hono'
import { createCollectionsApp, popularBooks, RELEASES_FEED } from './collections.js'
import { collectionPaths, createHydraApp } from './generated/hydra/index.js'
import type { PrismaClient } from './generated/prisma/client.js'

/** Every collection the example serves: the generated ones and the custom ones. */
export const exampleCollectionPaths = [...collectionPaths, '/genres', '/releases']

export interface ExampleAppOptions {
  /** Rows per query when a collection is served unpaged. */
  batchSize?: number
  /** The releases feed file. */
  releasesFeed?: string
}

/**
 * The example server: the generated Hydra API (with a custom data provider for `/books/popular`),
 * two custom collections, and a small index of what it serves at `/`.
 */
export function createApp(prisma: PrismaClient, options: ExampleAppOptions = {}) {
  const app = new Hono()
    .get('/', (c) => c.json({ collections: exampleCollectionPaths }))
    .route(
      '/',
      createHydraApp({
        prisma,
        providers: { book: { popular: popularBooks(prisma) } },
        batchSize: options.batchSize,
      })
    )
    .route('/', createCollectionsApp(prisma, options.releasesFeed ?? RELEASES_FEED))
  app.onError(hydraErrorHandler)
  app.notFound(hydraNotFound)
  return app
}
