/**
 * Errors of the application's own middleware, answered by `app.onError(hydraErrorHandler)`
 * (docs/errors.md): hono/jwt's 401 for a rejected token, thrown before the API's routes run, is a
 * problem that keeps its `WWW-Authenticate` (RFC 9110 §11.6.1).
 */
import { hydraErrorHandler, hydraNotFound } from '@prisma-hydra/runtime'
import { type Context, Hono, type Next } from 'hono'
import { jwt } from 'hono/jwt'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHydraApp } from '#generated/hydra/index.js'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { libraryAccess, tokenFor } from '../src/auth.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { emptyDatabase, startServer, type TestDatabase } from './support/harness.js'

const SECRET = 'app-errors test secret'
const CHALLENGE = /^Bearer realm="[^"]*",error="invalid_token"/
/** hono/jwt's realm is the request's URL unless given: a fixed one keeps the host out of it. */
const REALM = 'library'

let prisma: PrismaClient
let database: TestDatabase
const servers: Record<'mounted' | 'root', { origin: string; close: () => Promise<void> }> =
  {} as never

/** Verifies a bearer token when one is sent, as docs/security.md's setup does. */
const verify = jwt({ secret: SECRET, alg: 'HS256', realm: REALM })
const authenticate = (c: Context, next: Next) =>
  c.req.header('Authorization') === undefined ? next() : verify(c, next)

beforeAll(async () => {
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
  // The setup the docs teach: the API under /api, the token checked by the app's middleware.
  const app = new Hono()
  app.use('/api/*', authenticate)
  app.route('/api', createHydraApp({ prisma, access: libraryAccess }))
  app.onError(hydraErrorHandler)
  app.notFound(hydraNotFound)
  servers.mounted = await startServer(app.fetch)
  servers.root = await startServer(createApp(prisma, { auth: { secret: SECRET } }).fetch)
})

afterAll(async () => {
  for (const server of Object.values(servers)) await server?.close()
  await prisma?.$disconnect()
  await database?.remove()
})

describe('a rejected token', () => {
  it('keeps its challenge at the root too, and a valid token still reads', async () => {
    const { origin } = servers.root
    const refused = await fetch(`${origin}/loans`, {
      headers: { Authorization: 'Bearer not-a-token' },
    })
    expect(refused.status).toBe(401)
    expect(refused.headers.get('WWW-Authenticate')).toMatch(CHALLENGE)
    expect(await refused.json()).toMatchObject({ '@context': '/contexts/Error', status: 401 })
    const token = await tokenFor({ sub: 'Reader 1', role: 'reader' }, SECRET)
    const read = await fetch(`${servers.mounted.origin}/api/loans`, {
      headers: { Authorization: `Bearer ${token}` },
    })
    expect(read.status).toBe(200)
  })
})
