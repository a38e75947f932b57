import { hydraNotFound } from '@prisma-hydra/runtime'
import { Hono } from 'hono'
import { collectionPaths, createHydraApp } from './generated/hydra/index.js'
import type { PrismaClient } from './generated/prisma/client.js'

/** The example server: the generated Hydra API, and a small index of what it serves at `/`. */
export function createApp(prisma: PrismaClient) {
  const app = new Hono()
    .get('/', (c) => c.json({ collections: collectionPaths }))
    .route('/', createHydraApp({ prisma }))
  app.notFound(hydraNotFound)
  return app
}
