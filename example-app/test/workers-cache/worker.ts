/**
 * The example's Worker (src/worker.ts) as test/workers-cache.e2e.test.ts drives it: the same app,
 * Cache API cache and purging client, under access rules whose anonymous book pages are shared
 * (a librarian also sees poetry), with routes of its own to write books through the Worker's
 * client in each way a write can happen, and to read how many D1 statements ran and which purges
 * were made; a request with `X-Test-Origin` is answered by the same app without the cache. Served by `wrangler dev --config test/workers-cache/wrangler.jsonc` over the
 * example's local D1.
 */
import { workersCache, workersCachePurge } from '@prisma-hydra/runtime/invalidation'
import { type ExecutionContext, Hono } from 'hono'
import { createWorkerApp, type WorkerEnv } from '../../src/worker.js'
import { catalogueAccess } from '../support/catalogue-access.js'

/** The purges made, each with its tags; and the D1 statements prepared, since the start. */
const purges: string[][] = []
let statements = 0

/** The D1 binding, counting the statements Prisma prepares on it. */
function counted(db: WorkerEnv['DB']): WorkerEnv['DB'] {
  return new Proxy(db, {
    get(target, name) {
      const value = Reflect.get(target, name)
      if (typeof value !== 'function') return value
      return (...args: unknown[]) => {
        if (name === 'prepare' || name === 'exec') statements++
        return value.apply(target, args)
      }
    },
  })
}

type Worker = ReturnType<typeof createWorkerApp>
let worker: Worker | undefined
let origin: Worker['app'] | undefined

/** The write routes: `POST /test/books/:id/:via` with `{ "title": ... }`. */
function writes(prisma: Worker['prisma']) {
  return new Hono()
    .use(workersCache())
    .get('/test/counts', (c) => c.json({ statements, purges }))
    .post('/test/books/:id/:via', async (c) => {
      const id = Number(c.req.param('id'))
      const { title } = await c.req.json<{ title: string }>()
      const data = { title }
      const via = c.req.param('via')
      if (via === 'update') await prisma.book.update({ where: { id }, data })
      else if (via === 'updateMany') await prisma.book.updateMany({ where: { id }, data })
      else if (via === 'nested') {
        const { authorId } = await prisma.book.findUniqueOrThrow({ where: { id } })
        await prisma.author.update({
          where: { id: authorId },
          data: { books: { update: { where: { id }, data } } },
        })
      } else if (via === 'batch')
        await prisma.$transaction([prisma.book.update({ where: { id }, data })])
      else if (via === 'rollback') {
        const rolledBack = prisma.$transaction(async (tx) => {
          await tx.book.update({ where: { id }, data })
          throw new Error('rolled back')
        })
        const outcome = await rolledBack.then(
          () => 'committed',
          (error: Error) => error.message
        )
        return c.json({ outcome })
      } else return c.json({ via }, 404)
      return c.body(null, 204)
    })
}

let routes: ReturnType<typeof writes> | undefined

export default {
  fetch(request: Request, env: WorkerEnv, context: ExecutionContext) {
    if (!worker) {
      const purge = workersCachePurge()
      worker = createWorkerApp(
        { ...env, DB: counted(env.DB) },
        {
          access: catalogueAccess,
          purge: (tags) => {
            purges.push([...tags])
            return purge(tags)
          },
        }
      )
      routes = writes(worker.prisma)
      origin = createWorkerApp(env, { access: catalogueAccess, cache: false }).app
    }
    const test = new URL(request.url).pathname.startsWith('/test/')
    const app = test ? routes : request.headers.has('X-Test-Origin') ? origin : worker.app
    return (app ?? worker.app).fetch(request, env, context)
  },
}
