/**
 * Several instances of the example app over one database, as several processes behind a load
 * balancer: each with its own Prisma client (and its own clients of the read replicas given), its
 * own server on a free port, and the same options. Options reach `createApp` as given, so a check
 * of a shared setting (a shared totals cache, say) starts its instances with it.
 */
import { expect } from 'vitest'
import type { PrismaClient } from '#generated/prisma/client.js'
import type { DriverTimeouts } from '../../src/adapter.js'
import { createApp, type ExampleAppOptions } from '../../src/app.js'
import { createPrismaClient } from '../../src/prisma.js'
import { startServer } from './harness.js'

export interface Instance {
  origin: string
  /** Its client of the primary. */
  prisma: PrismaClient
}

export interface InstancesOptions {
  /** Each instance reads these replicas (through clients of its own). */
  replicaUrls?: readonly string[]
  /** The driver's bounds of every client (src/adapter.ts). */
  driver?: DriverTimeouts
  /** The app's options, the same for every instance (`replicas` comes from `replicaUrls`). */
  app?: Omit<ExampleAppOptions, 'replicas'>
}

/** Starts `count` instances over the database at `url`; `close` stops them and their clients. */
export async function startInstances(
  count: number,
  url: string,
  options: InstancesOptions = {}
): Promise<{ instances: Instance[]; close: () => Promise<void> }> {
  const instances: Instance[] = []
  const closers: Array<() => Promise<void>> = []
  const close = async () => {
    for (const closer of closers.reverse()) await closer()
  }
  try {
    for (let i = 0; i < count; i++) {
      const prisma = createPrismaClient(url, options.driver)
      const replicas = (options.replicaUrls ?? []).map((replica) =>
        createPrismaClient(replica, options.driver)
      )
      for (const client of [prisma, ...replicas]) closers.push(() => client.$disconnect())
      const server = await startServer(createApp(prisma, { ...options.app, replicas }).fetch)
      closers.push(server.close)
      instances.push({ origin: server.origin, prisma })
    }
    return { instances, close }
  } catch (error) {
    await close()
    throw error
  }
}

type Body = Record<string, unknown>

/** A collection's members, view and total, with or without the `hydra:` prefix. */
export function collectionParts(body: Body) {
  const members = (body['hydra:member'] ?? body.member ?? []) as Array<Record<string, unknown>>
  const view = (body['hydra:view'] ?? body.view ?? {}) as Record<string, string>
  const total = (body['hydra:totalItems'] ?? body.totalItems) as number | undefined
  return {
    members,
    total,
    next: view['hydra:next'] ?? view.next,
    last: view['hydra:last'] ?? view.last,
  }
}

async function json(origin: string, target: string): Promise<{ status: number; body: Body }> {
  const response = await fetch(`${origin}${target}`)
  return { status: response.status, body: (await response.json()) as Body }
}

/**
 * Follows `next` from `start`, the i-th page asked of `origins[i % n]`; the ids of every page.
 * Every answer must be a 200.
 */
async function walkAcross(origins: readonly string[], start: string): Promise<number[][]> {
  const pages: number[][] = []
  let next: string | undefined = start
  while (next) {
    const { status, body } = await json(origins[pages.length % origins.length] as string, next)
    if (status !== 200) throw new Error(`${next}: ${status} ${JSON.stringify(body)}`)
    const parts = collectionParts(body)
    pages.push(parts.members.map((member) => member.id as number))
    next = parts.next
  }
  return pages
}

/**
 * Page `page` of `/books?itemsPerPage=N` as one instance answers it, checked against its own
 * total: the members a page of that total holds, and the last page that total makes. A page and a
 * total read at two moments of a collection that grows disagree.
 */
async function bookPageAgreesWithItsTotal(
  origin: string,
  page: number,
  perPage: number
): Promise<{ total: number; size: number }> {
  const { status, body } = await json(origin, `/books?itemsPerPage=${perPage}&page=${page}`)
  if (status !== 200) throw new Error(`/books page ${page}: ${status} ${JSON.stringify(body)}`)
  const { members, total, last } = collectionParts(body)
  if (total === undefined) throw new Error('/books has no total')
  const expected = Math.max(0, Math.min(perPage, total - (page - 1) * perPage))
  const lastPage = Math.max(1, Math.ceil(total / perPage))
  if (members.length !== expected || !last?.endsWith(`page=${lastPage}`))
    throw new Error(
      `/books page ${page} from ${origin}: ${members.length} members and last ${last} with a total of ${total}`
    )
  return { total, size: members.length }
}

/** Each origin's answers to `targets`, which must be identical across origins. */
async function sameAnswers(
  origins: readonly string[],
  targets: readonly string[]
): Promise<Map<string, Body>> {
  const answers = new Map<string, Body>()
  for (const target of targets) {
    const bodies = await Promise.all(origins.map((origin) => json(origin, target)))
    const [first] = bodies
    for (const [index, other] of bodies.entries()) {
      if (other.status !== 200 || JSON.stringify(other.body) !== JSON.stringify(first?.body))
        throw new Error(`${target}: ${origins[index]} answers otherwise than ${origins[0]}`)
    }
    answers.set(target, first?.body as Body)
  }
  return answers
}

/** Targets every instance must answer alike once writes stop: links, totals, members, items. */
export const AGREED_TARGETS = [
  '/books',
  '/books?itemsPerPage=25&page=6',
  '/books/recent?page=2',
  '/reviews?page=3',
  '/activities',
  '/authors/1/books',
  '/books/300000',
]

/** What {@link agreeUnderWrites} saw. */
export interface Agreement {
  /** Rows written while the instances were read. */
  written: number
  /** Requests answered meanwhile. */
  requests: number
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Reads every instance at once while `prisma` writes (a book at the end of `/books`, an activity
 * at the head of `/activities`, in one transaction, again and again), then, the writes over and
 * `settle` done (a replica caught up), asks every instance the same targets:
 * - each reader walks `/activities` by its cursor links, page after page through the next
 *   instance: no row twice, and every row that existed before the writes began;
 * - each reader asks the last page of `/books` of each instance, and each answer agrees with its
 *   own total (the page and the count of one moment);
 * - afterwards, every instance answers `targets` identically (members, totals, links).
 */
export async function agreeUnderWrites(
  origins: readonly string[],
  prisma: PrismaClient,
  targets: readonly string[],
  settle: () => Promise<void> = async () => {}
): Promise<Agreement> {
  const existing = (await prisma.activity.findMany({ select: { id: true } })).map(({ id }) => id)
  const future = Date.now() + 10 * 365 * 86_400_000
  let writing = true
  let written = 0
  let requests = 0
  const writer = (async () => {
    while (writing) {
      const n = written
      await prisma.$transaction([
        prisma.book.create({
          data: {
            id: 300_000 + n,
            title: `Written meanwhile ${n}`,
            isbn: `979-0-${300_000 + n}`,
            genre: 'FICTION',
            pages: 100,
            price: '9.90',
            publishedAt: new Date(future),
            authorId: 1,
          },
        }),
        prisma.activity.create({
          data: {
            id: 200_000 + n,
            occurredAt: new Date(future + n * 1000),
            kind: 'written',
            summary: `Written meanwhile ${n}`,
          },
        }),
      ])
      written++
      await sleep(5)
    }
  })()
  const perPage = 25
  try {
    await Promise.all(
      origins.map(async (_, reader) => {
        const order = [...origins.slice(reader), ...origins.slice(0, reader)]
        const walked = (await walkAcross(order, '/activities?itemsPerPage=50')).flat()
        requests += Math.ceil(walked.length / 50)
        expect(new Set(walked).size, 'no activity twice in one walk').toBe(walked.length)
        expect(new Set(walked), 'every activity that existed throughout').toEqual(
          new Set([...walked, ...existing])
        )
        let page = 1
        for (let round = 0; round < 2 * origins.length; round++) {
          const origin = order[round % order.length] as string
          const { total } = await bookPageAgreesWithItsTotal(origin, page, perPage)
          requests++
          page = Math.max(1, Math.ceil(total / perPage))
        }
      })
    )
  } finally {
    writing = false
    await writer
  }
  expect(written, 'rows were written while the instances were read').toBeGreaterThan(0)
  await settle()
  await sameAnswers(origins, targets)
  return { written, requests: requests + targets.length * origins.length }
}
