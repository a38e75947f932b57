/**
 * The example app on Cloudflare Workers (docs/runtime-workers.md): the same createApp as
 * src/main.ts, over a D1 database through `@prisma/adapter-d1`, with the Prisma client generated
 * for workerd (`#generated/*` under the `workerd` condition, which wrangler's bundler sets).
 * `wrangler dev` serves it with a local D1 (wrangler.jsonc).
 */
import { PrismaD1 } from '@prisma/adapter-d1'
import type { ExecutionContext } from 'hono'
import { PrismaClient } from '#generated/prisma/client.js'
// Bundled as text (wrangler.jsonc, `rules`): a Worker has no files to read.
import releases from '../data/releases.ndjson'
import { createApp } from './app.js'
import { DEFAULT_JWT_SECRET } from './auth.js'

/** The Worker's bindings (wrangler.jsonc): the D1 database, and the tokens' secret if set. */
export interface WorkerEnv {
  DB: ConstructorParameters<typeof PrismaD1>[0]
  JWT_SECRET?: string
}

/*
 * One app per isolate, made on its first request: bindings are only known then. Building the app
 * (every route and document) on each request would repeat that work for nothing.
 */
let app: ReturnType<typeof createApp> | undefined

export default {
  fetch(request: Request, env: WorkerEnv, context: ExecutionContext) {
    app ??= createApp(new PrismaClient({ adapter: new PrismaD1(env.DB) }), {
      auth: { secret: env.JWT_SECRET ?? DEFAULT_JWT_SECRET },
      releasesFeed: { text: releases },
    })
    return app.fetch(request, env, context)
  },
}
