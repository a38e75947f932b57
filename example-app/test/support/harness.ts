import { mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pushSchema } from '@prisma-hydra/prisma-offline/push-schema'
import { writeSchemaCopy } from '@prisma-hydra/prisma-offline/schema-copy'
import { createScratchDatabase } from '@prisma-hydra/prisma-offline/scratch-database'
import { createHydraServer, type HydraServerOptions } from '@prisma-hydra/runtime/node'
import {
  type AppProvider,
  appProviderOf,
  createAdapter as createAppAdapter,
  type DriverTimeouts,
  withSettings,
} from '../../src/adapter.js'
import { SERVERS, serverUrl, TEST_DATABASE_VARIABLE } from './databases.js'

/**
 * The driver adapter for a test database's URL: the example app's own choice by URL scheme, with
 * a MariaDB pool that opens its connections as requests need them (unless the URL says otherwise).
 * The `mariadb` driver's pool opens all of `connectionLimit` (10) at once and keeps them: a file
 * comparing an API with a dozen oracles held 130 connections, and beside the other file running
 * (vitest.config.ts) that reached the server's default `max_connections` of 151, where a pool
 * refused a connection answers 503.
 */
export function createAdapter(url: string, timeouts?: DriverTimeouts) {
  const pooled = appProviderOf(url) === 'mysql' ? withSettings(url, { minimumIdle: 1 }) : url
  return createAppAdapter(pooled, timeouts)
}

/**
 * The database this test process runs on: SQLite unless HYDRA_TEST_DATABASE says otherwise
 * (vitest.config.ts sets it for the `postgresql` and `mysql` projects, whose `#generated/*` and
 * `#fixtures/*` imports resolve to the clients generated for that provider).
 */
export const TEST_DATABASE: AppProvider = (() => {
  const value = process.env[TEST_DATABASE_VARIABLE] ?? 'sqlite'
  if (value !== 'sqlite' && value !== 'postgresql' && value !== 'mysql') {
    throw new Error(
      `${TEST_DATABASE_VARIABLE} must be "sqlite", "postgresql" or "mysql", got "${value}"`
    )
  }
  return value
})()

/** The server of each provider that has one. */
const SERVER_OF = { postgresql: 'postgresql', mysql: 'mariadb' } as const

export interface TestDatabase {
  url: string
  /** Deletes the database and everything in it. */
  remove: () => Promise<void>
}

/**
 * An empty database of the test's own: a file in a new temporary folder (SQLite), or a new
 * database on the DATABASE_URL_POSTGRES or DATABASE_URL_MARIADB server, so that runs and test
 * files never see each other's rows.
 */
export async function emptyDatabase(): Promise<TestDatabase> {
  if (TEST_DATABASE !== 'sqlite') {
    const key = SERVER_OF[TEST_DATABASE]
    const server = serverUrl(key)
    if (!server) {
      throw new Error(`${TEST_DATABASE_VARIABLE}=${TEST_DATABASE} needs ${SERVERS[key].variable}`)
    }
    const { url, drop } = await createScratchDatabase(server, { prefix: 'prisma_hydra_e2e' })
    return { url, remove: drop }
  }
  const folder = await mkdtemp(path.join(tmpdir(), 'prisma-hydra-e2e-'))
  return {
    url: `file:${path.join(folder, 'test.db')}`,
    remove: () => rm(folder, { recursive: true, force: true }),
  }
}

/**
 * A fresh database (see emptyDatabase) with the schema at `schemaPath` applied by Prisma's
 * engine (on MySQL/MariaDB, DDL derived from it); on a server, a copy of the schema for its
 * provider is applied.
 */
export async function freshDatabase(schemaPath: string): Promise<TestDatabase> {
  const database = await emptyDatabase()
  const copies = await mkdtemp(path.join(tmpdir(), 'prisma-hydra-schema-'))
  try {
    const schema =
      TEST_DATABASE === 'sqlite'
        ? schemaPath
        : await writeSchemaCopy({ schemaPath, provider: TEST_DATABASE, dir: copies })
    await pushSchema({ schemaPath: schema, url: database.url })
    return database
  } catch (error) {
    await database.remove()
    throw error
  } finally {
    await rm(copies, { recursive: true, force: true })
  }
}

/**
 * Serves `fetch` on a free loopback port, as the example's server does (`createHydraServer`:
 * requests Node's parser or adapter refuses answered as problems, with its `options`): the tests
 * speak real HTTP to it.
 */
export async function startServer(
  fetch: (request: Request) => Response | Promise<Response>,
  options: HydraServerOptions = {}
): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = createHydraServer(fetch, options)
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      resolve({
        origin: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done())
            server.closeAllConnections()
          }),
      })
    })
  })
}

export interface JsonResponse {
  status: number
  contentType: string | null
  body: Record<string, unknown>
}

/** GETs a path and parses its JSON body. */
export async function get(origin: string, pathAndQuery: string): Promise<JsonResponse> {
  const response = await fetch(`${origin}${pathAndQuery}`)
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    body: (await response.json()) as Record<string, unknown>,
  }
}

/**
 * Sends a GET to an app on the `prisma` engine (`origin`) and to the same app on the `compiled`
 * engine (`twin`), and throws unless both answer the same status and bytes.
 */
export async function expectSameOnBothEngines(
  origin: string,
  twin: string,
  pathAndQuery: string
): Promise<void> {
  const [own, compiled] = await Promise.all(
    [origin, twin].map(async (server) => {
      const response = await fetch(`${server}${pathAndQuery}`)
      return `${response.status} ${await response.text()}`
    })
  )
  if (own !== compiled) {
    throw new Error(
      `${pathAndQuery} on the compiled engine:\n  prisma:   ${own?.slice(0, 600)}\n  compiled: ${compiled?.slice(0, 600)}`
    )
  }
}

/**
 * {@link get}, with a collection's `hydra:search` block checked and left out: the reference writes
 * none for paging parameters, so tests of the reference's collection shapes compare the rest
 * (the block itself is tested in hydra-clients.e2e.test.ts). The block names its collection's
 * template (`/dummies#search`); the entry page (no query) holds the template, other pages only
 * that name (docs/filters.md#discovery-hydrasearch).
 */
export async function getWithoutSearch(
  origin: string,
  pathAndQuery: string
): Promise<JsonResponse> {
  const response = await get(origin, pathAndQuery)
  const { body } = response
  const [path, query] = pathAndQuery.split('?') as [string, string | undefined]
  for (const key of ['hydra:search', 'search']) {
    if (body[key] === undefined) continue
    const template = body[key] as Record<string, unknown>
    const text = template['hydra:template'] ?? template.template
    const holds = typeof text === 'string' && text.startsWith(path)
    if (template['@id'] !== `${path}#search` || holds !== (query === undefined))
      throw new Error(`${pathAndQuery}: a search block for another path or page: ${String(text)}`)
    delete body[key]
  }
  return response
}

export function ids(body: Record<string, unknown>): unknown[] {
  const members = (body['hydra:member'] ?? []) as Array<Record<string, unknown>>
  return members.map((member) => member.id)
}

/** A property of a class in the API documentation, as `/docs.jsonld` writes it. */
export interface DocumentedProperty {
  'hydra:title': string
  'hydra:required': boolean
  'hydra:property': { range: string }
}

/** The properties `/docs.jsonld` documents for the class titled `type`. */
export async function documentedProperties(
  origin: string,
  type: string
): Promise<DocumentedProperty[]> {
  const { body } = await get(origin, '/docs.jsonld')
  const classes = body['hydra:supportedClass'] as Array<Record<string, unknown>>
  const found = classes.find((candidate) => candidate['hydra:title'] === type)
  return (found?.['hydra:supportedProperty'] ?? []) as DocumentedProperty[]
}
