/**
 * A SaaS application's schema served whole (test/fixtures/saas, 41 models and a view in the shape
 * of Auth.js, better-auth, the Epic Stack, BoxyHQ, Open SaaS, Langfuse, trigger.dev and Umami):
 * every model annotated, generated and served from a small deterministic data set, then walked
 * link by link from the entrypoint. Every collection page, member, item, relation IRI,
 * sub-collection and context answers 200, every row of every model is reached, items are their
 * members; every declared filter and order answers with a value taken from the data; a malformed
 * id for every key, and under every sub-collection, is a 404 problem; nothing answers 5xx.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as saas from '#fixtures/saas/hydra/index.js'
import { PrismaClient } from '#fixtures/saas/prisma/client.js'
import {
  createAdapter,
  freshDatabase,
  get,
  type JsonResponse,
  startServer,
} from './support/harness.js'
import { seedSaas } from './support/saas-seed.js'

const SCHEMA = new URL('./fixtures/saas/schema.prisma', import.meta.url).pathname
const PROBLEM = 'application/problem+json; charset=utf-8'
const JSON_LD = 'application/ld+json; charset=utf-8'
/** A bound on the walk: the data set needs about 350 requests. */
const MAX_REQUESTS = 4000

type Body = Record<string, unknown>
interface KeyedResource {
  name: string
  collectionPath: string
  id: {
    kind: string
    values?: readonly string[] | undefined
    fields?: readonly { name: string; kind: string }[] | undefined
  }
  parseId: (segment: string) => unknown
}

const resources = (Object.values(saas) as unknown[]).filter(
  (value): value is KeyedResource =>
    typeof value === 'object' && value !== null && 'parseId' in value
)

let prisma: PrismaClient
let origin: string
let close: () => Promise<void>
let remove: () => Promise<void>

beforeAll(async () => {
  const database = await freshDatabase(SCHEMA)
  remove = database.remove
  prisma = new PrismaClient({ adapter: createAdapter(database.url) })
  await seedSaas(prisma)
  ;({ origin, close } = await startServer(saas.createHydraApp({ prisma }).fetch))
})

afterAll(async () => {
  await close?.()
  await prisma?.$disconnect()
  await remove?.()
})

const members = (body: Body) => (body['hydra:member'] ?? []) as Body[]
const view = (body: Body) => (body['hydra:view'] ?? {}) as Record<string, unknown>
/** A model's delegate on the client: `TeamMember` is `prisma.teamMember`. */
const delegate = (name: string) =>
  (prisma as unknown as Record<string, { count: () => Promise<number> }>)[
    `${name[0]?.toLowerCase()}${name.slice(1)}`
  ] as { count: () => Promise<number> }

const VIEW_LINKS = ['@id', 'hydra:first', 'hydra:last', 'hydra:previous', 'hydra:next']

/**
 * The IRIs a document links to: its context and `@id`, the entrypoint's collections, its view's
 * pages, and of itself and each member the `@id`, the context and every relation (a to-one link or
 * a sub-collection) its type declares.
 */
function linksOf(path: string, body: Body): string[] {
  const links: unknown[] = [body['@context']]
  if (path === '/')
    links.push(
      ...Object.entries(body)
        .filter(([key]) => !key.startsWith('@'))
        .map(([, value]) => value)
    )
  const pages = view(body)
  links.push(...VIEW_LINKS.map((key) => pages[key]))
  for (const node of [body, ...members(body)]) {
    links.push(node['@id'])
    const type = saas.hydraTypes.find((candidate) => candidate.name === node['@type'])
    links.push(...(type?.links ?? []).map((link) => node[link.name]))
  }
  return links.filter((link): link is string => typeof link === 'string' && link.startsWith('/'))
}

interface Walk {
  responses: Map<string, JsonResponse>
  /** Every member seen on the main collection's pages, by collection path. */
  collected: Map<string, Set<string>>
  /** Every member each member stands for, by IRI. */
  seenMembers: Map<string, Body>
}

let walked: Walk | undefined

/** Walks the API from its entrypoint, following every link once (memoised for the tests). */
async function walk(): Promise<Walk> {
  if (walked) return walked
  const responses = new Map<string, JsonResponse>()
  const collected = new Map<string, Set<string>>()
  const seenMembers = new Map<string, Body>()
  const queue = ['/']
  const paths = new Set(resources.map((resource) => resource.collectionPath))
  while (queue.length > 0) {
    const batch = queue.splice(0, 8).filter((path) => !responses.has(path))
    if (responses.size + batch.length > MAX_REQUESTS)
      throw new Error(`more than ${MAX_REQUESTS} requests`)
    const answers = await Promise.all(batch.map((path) => get(origin, path)))
    for (const [index, path] of batch.entries()) {
      const response = answers[index] as JsonResponse
      responses.set(path, response)
      const bare = path.split('?')[0] as string
      if (paths.has(bare)) {
        const set = collected.get(bare) ?? new Set()
        for (const member of members(response.body)) set.add(member['@id'] as string)
        collected.set(bare, set)
      }
      for (const member of members(response.body)) seenMembers.set(member['@id'] as string, member)
      for (const link of linksOf(path, response.body)) {
        if (!responses.has(link) && !queue.includes(link)) queue.push(link)
      }
    }
  }
  walked = { responses, collected, seenMembers }
  return walked
}

describe('the SaaS schema', () => {
  it('serves every model and the view, each a collection of the entrypoint', async () => {
    expect(resources.length).toBeGreaterThanOrEqual(42)
    const { body } = await get(origin, '/')
    const entries = Object.entries(body).filter(([key]) => !key.startsWith('@'))
    expect(entries.map(([, path]) => path).sort()).toEqual(
      resources.map((resource) => resource.collectionPath).sort()
    )
  })

  it('answers every link of every page, member, item and sub-collection with 200', async () => {
    const { responses } = await walk()
    const failed = [...responses].filter(
      ([, response]) =>
        response.status !== 200 ||
        (response.contentType !== JSON_LD &&
          !response.contentType?.startsWith('application/ld+json'))
    )
    expect(failed.map(([path, response]) => `${path}: ${response.status}`)).toEqual([])
    // Sub-collections of every to-many link of every item were reached.
    for (const type of saas.hydraTypes) {
      for (const link of type.links ?? []) {
        if (link.kind !== 'many') continue
        const under = [...responses.keys()].filter(
          (path) => path.startsWith(`${type.itemPath}/`) && path.endsWith(`/${link.name}`)
        )
        expect(under.length, `${type.name}.${link.name}`).toBeGreaterThan(0)
      }
    }
    expect(responses.size).toBeGreaterThan(300)
  })

  it('reaches every row of every model through its collection’s pages', async () => {
    const { collected } = await walk()
    for (const resource of resources) {
      const count = await delegate(resource.name).count()
      expect(count, resource.name).toBeGreaterThan(0)
      expect(collected.get(resource.collectionPath)?.size, resource.name).toBe(count)
    }
  })

  it('serves each member at its IRI as the collection shows it', async () => {
    const { responses, seenMembers } = await walk()
    for (const [iri, member] of seenMembers) {
      const item = responses.get(iri)
      expect(item?.status, iri).toBe(200)
      const { '@context': _context, ...rest } = item?.body ?? {}
      expect(rest, iri).toEqual(member)
    }
  })

  it('links sub-collections to exactly their related rows', async () => {
    const body = (path: string) => walked?.responses.get(path)?.body ?? {}
    await walk()
    const ann = '/users/ckuser0ann'
    const memberIris = (path: string) => members(body(path)).map((member) => member['@id'])
    expect(memberIris(`${ann}/invitees`)).toEqual(['/users/ckuser0bob', '/users/ckuser0cy'])
    expect(memberIris('/users/ckuser0bob/invitees')).toEqual([
      `/users/${encodeURIComponent('user/ünï 4')}`,
    ])
    expect(memberIris('/projects/ckproj1/tags')).toEqual(['/tags/1', '/tags/2'])
    expect(memberIris('/tags/1/projects')).toEqual(['/projects/ckproj1', '/projects/ckproj2'])
    expect(memberIris('/observations/ckobs1/children')).toEqual(['/observations/ckobs2'])
    // Enums sort by declaration on PostgreSQL and MySQL, by text on SQLite: compared as sets.
    expect(memberIris('/permissions/1/roles').sort()).toEqual([
      '/role-permissions/role=ADMIN;permissionId=1',
      '/role-permissions/role=OWNER;permissionId=1',
    ])
    const session = `/trace-sessions/id=${encodeURIComponent('sess/b')};projectId=ckproj1`
    expect(memberIris(`${session}/traces`)).toEqual(['/traces/cktrace3'])
    expect(body('/traces/cktrace3').session).toBe(session)
    expect(body('/team-stats/1b4e28ba-2fa1-41d2-883f-0016d3cca427').members).toBe('3')
  })
})

describe('filters and orders', () => {
  /** A value for a search variable, taken from the collection's first member that has one. */
  function valueFor(variable: string, property: string, page: Body[]): string | undefined {
    if (variable.startsWith('order[')) return 'desc'
    if (variable.startsWith('exists[')) return 'true'
    const [field, operator] = variable.replace(/\]$/, '').split('[')
    const base = (field ?? property).split('.')[0] as string
    const found = page
      .map((member) => member[base])
      .find((value) => value !== null && value !== undefined)
    if (found === undefined) return undefined
    if (typeof found === 'object') return undefined
    if (property.includes('.')) return undefined
    if (operator === 'between') return `${found}..${found}`
    return String(found)
  }

  it('answers every declared parameter with a value from the data, never a 5xx', async () => {
    const { responses } = await walk()
    const failures: string[] = []
    let asked = 0
    for (const resource of resources) {
      const first = responses.get(resource.collectionPath)?.body ?? {}
      const search = first['hydra:search'] as Body | undefined
      if (!search) continue
      for (const mapping of search['hydra:mapping'] as Array<Record<string, string>>) {
        const value = valueFor(
          mapping.variable as string,
          mapping.property as string,
          members(first)
        )
        if (value === undefined) continue
        const path = `${resource.collectionPath}?${encodeURIComponent(mapping.variable as string)}=${encodeURIComponent(value)}`
        const { status, body } = await get(origin, path)
        asked++
        const variable = mapping.variable as string
        // A cursor collection's key fields are positions, read together: alone, a 400.
        const position = status === 400 && /cursor parameter/.test(String(body.detail))
        if (status !== 200 && !position) failures.push(`${path}: ${status} ${JSON.stringify(body)}`)
        // The value is the first member's: an inclusive match keeps that member.
        const inclusive = !/\[(gt|lt|strictly_before|strictly_after)\]$|^(order|exists)\[/.test(
          variable
        )
        if (status === 200 && inclusive && members(body).length === 0)
          failures.push(`${path}: no member, though the first page has one`)
      }
    }
    expect(failures).toEqual([])
    expect(asked).toBeGreaterThan(40)
  })
})

describe('exists on Json and Bytes fields', () => {
  const iris = async (path: string) => {
    const { status, body } = await get(origin, path)
    expect(status, JSON.stringify(body)).toBe(200)
    return members(body).map((member) => member['@id'])
  }

  it('tells a payload from the database’s null and JSON’s null, both served as null', async () => {
    const all = await prisma.auditLog.findMany({ orderBy: { id: 'desc' } })
    const served = members((await get(origin, '/audit-logs?itemsPerPage=3')).body)
    expect(served.map((member) => member.payload)).toEqual([null, null, { role: 'ADMIN' }])
    const withPayload = all.filter((row) => row.id === 9007199254740993n)
    expect(await iris('/audit-logs?exists%5Bpayload%5D=true')).toEqual(
      withPayload.map((row) => `/audit-logs/${row.id}`)
    )
    expect(await iris('/audit-logs?exists%5Bpayload%5D=false')).toEqual([
      '/audit-logs/9223372036854775807',
      '/audit-logs/9007199254740994',
      '/audit-logs/1',
    ])
  })

  it('tells bytes from none', async () => {
    expect(await iris('/webhooks?exists%5Bsecret%5D=true')).toEqual([
      '/webhooks/b0b0b0b0-0000-4000-8000-000000000001',
    ])
    expect(await iris('/webhooks?exists%5Bsecret%5D=0')).toEqual([
      '/webhooks/b0b0b0b0-0000-4000-8000-000000000002',
    ])
  })
})

describe('malformed keys', () => {
  /** Ids no row can have for a key field of `kind`. */
  function badValues(kind: string, values?: readonly string[]): string[] {
    switch (kind) {
      case 'Int':
        return ['abc', '01', '1.5', '2147483648']
      case 'BigInt':
        return ['abc', '01', '9223372036854775808', '1e3']
      case 'Enum':
        return ['NOPE', (values?.[0] ?? 'X').toLowerCase()]
      case 'DateTime':
        return ['yesterday', '2024-02-30T00:00:00.000Z', '2024-01-01']
      default:
        return ['no-such-id', 'id=x', '%ZZ']
    }
  }

  function malformed(resource: KeyedResource): string[] {
    const { id } = resource
    if (!id.fields) return badValues(id.kind, id.values)
    const fields = id.fields
    const good = fields.map((field) => `${field.name}=${field.kind === 'Int' ? '1' : 'x'}`)
    return [
      good[0] as string,
      [...good].reverse().join(';'),
      [...good, 'extra=1'].join(';'),
      `${good.join(';')};`,
      ...fields.flatMap((field, index) =>
        badValues(field.kind).map((bad) =>
          good.map((part, at) => (at === index ? `${field.name}=${bad}` : part)).join(';')
        )
      ),
    ]
  }

  it('is a 404 problem for every key type, on items and under every sub-collection', async () => {
    const failures: string[] = []
    let asked = 0
    for (const resource of resources) {
      const type = saas.hydraTypes.find(
        (candidate) => candidate.itemPath === resource.collectionPath
      )
      const suffixes = [
        '',
        ...(type?.links ?? [])
          .filter((link) => link.kind === 'many')
          .map((link) => `/${link.name}`),
      ]
      for (const id of malformed(resource)) {
        for (const suffix of suffixes) {
          const path = `${resource.collectionPath}/${id}${suffix}`
          const response = await fetch(`${origin}${path}`)
          asked++
          const type = response.headers.get('content-type')
          if (response.status !== 404 || type !== PROBLEM)
            failures.push(`${path}: ${response.status} ${type} ${await response.text()}`)
          else await response.arrayBuffer()
        }
      }
    }
    expect(failures).toEqual([])
    expect(asked).toBeGreaterThan(200)
  })
})
