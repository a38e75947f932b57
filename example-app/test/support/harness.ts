import { mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { serve } from '@hono/node-server'
import { pushSchema } from '../../scripts/push-schema.mjs'

/** A fresh SQLite database in a temporary folder, with the schema applied by Prisma's engine. */
export async function freshDatabase(
  schemaPath: string
): Promise<{ url: string; remove: () => Promise<void> }> {
  const folder = await mkdtemp(path.join(tmpdir(), 'prisma-hydra-e2e-'))
  const url = `file:${path.join(folder, 'test.db')}`
  await pushSchema({ schemaPath, url })
  return { url, remove: () => rm(folder, { recursive: true, force: true }) }
}

/** Serves `fetch` on a free loopback port: the tests speak real HTTP to it. */
export async function startServer(
  fetch: (request: Request) => Response | Promise<Response>
): Promise<{ origin: string; close: () => Promise<void> }> {
  return new Promise((resolve) => {
    const server = serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
      resolve({
        origin: `http://127.0.0.1:${info.port}`,
        close: () => new Promise<void>((done) => server.close(() => done())),
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

export function ids(body: Record<string, unknown>): unknown[] {
  const members = (body['hydra:member'] ?? []) as Array<Record<string, unknown>>
  return members.map((member) => member.id)
}
