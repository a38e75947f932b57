/**
 * The example app on Cloudflare Workers (docs/runtime-workers.md): the same createApp as
 * src/main.ts, over a D1 database through `@prisma/adapter-d1`, with the Prisma client generated
 * for workerd (`#generated/*` under the `workerd` condition, which wrangler's bundler sets).
 * `wrangler dev` serves it with a local D1 (wrangler.jsonc). Anonymous answers the runtime marks
 * shareable are kept in the Worker's Cache API cache, and writes through the app's client purge
 * them (docs/caching.md#cloudflare-workers).
 */

import { PrismaD1 } from '@prisma/adapter-d1'
import {
  hydraInvalidation,
  type PurgeTags,
  workersCache,
  workersCachePurge,
} from '@prisma-hydra/runtime/invalidation'
import { hydraMcp } from '@prisma-hydra/runtime/mcp'
import type { ExecutionContext } from 'hono'
import type { HydraAccess } from '#generated/hydra/index.js'
import { PrismaClient } from '#generated/prisma/client.js'
// Bundled as text (wrangler.jsonc, `rules`): a Worker has no files to read.
import releases from '../data/releases.ndjson'
import { createApp } from './app.js'
import { DEFAULT_JWT_SECRET, type LibraryEnv, libraryAccess } from './auth.js'

/** The Worker's bindings (wrangler.jsonc): the D1 database, and the tokens' secret if set. */
export interface WorkerEnv {
  DB: ConstructorParameters<typeof PrismaD1>[0]
  JWT_SECRET?: string
}

/** What a Worker serving the example may change (its tests' own Worker changes both). */
export interface WorkerAppOptions {
  /** The access rules (default src/auth.ts's). */
  access?: HydraAccess<LibraryEnv>
  /** How writes purge the cache (default `workersCachePurge()`, the Worker's Cache API). */
  purge?: PurgeTags
  /** Whether answers go through the Worker's cache (default true). */
  cache?: boolean
}

/**
 * The example app over the Worker's D1, and its Prisma client: writes through it purge the
 * answers the Worker's cache keeps of the models they change, once they are done.
 */
export function createWorkerApp(env: WorkerEnv, options: WorkerAppOptions = {}) {
  // The extension applied to the client itself keeps the client's type, which createApp takes.
  const prisma = hydraInvalidation({ purge: options.purge ?? workersCachePurge() })(
    new PrismaClient({ adapter: new PrismaD1(env.DB) })
  )
  const app = createApp(prisma, {
    auth: { secret: env.JWT_SECRET ?? DEFAULT_JWT_SECRET, access: options.access ?? libraryAccess },
    releasesFeed: { text: releases },
    cacheTags: {},
    sharedCache: options.cache === false ? undefined : workersCache(),
    // Tools for agents at /mcp (docs/mcp.md). No outer app guards the API's paths here: tool calls
    // go through the API's routes with the claims createApp's middleware read for the `/mcp` request.
    mcp: hydraMcp(),
  })
  return { app, prisma }
}

/*
 * One app per isolate, made on its first request: bindings are only known then. Building the app
 * (every route and document) on each request would repeat that work for nothing.
 */
let app: ReturnType<typeof createWorkerApp>['app'] | undefined

export default {
  fetch(request: Request, env: WorkerEnv, context: ExecutionContext) {
    app ??= createWorkerApp(env).app
    return app.fetch(request, env, context)
  },
}
