/**
 * Row scopes holding values only Prisma's client reads (docs/security.md): a Json field compared
 * with the client's null sentinels (`Prisma.DbNull`, `Prisma.JsonNull`, `Prisma.AnyNull`), a
 * column compared with another through a field reference. Each caller sees the rows Prisma
 * selects, on both engines: the compiled engine, which compares no such value itself, hands that
 * caller's requests to Prisma (`handoff` in `Server-Timing`) rather than compare the column with
 * the value's JSON form (`{}`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHydraApp, type HydraAccess } from '#fixtures/scalars/hydra/index.js'
import { Prisma, PrismaClient } from '#fixtures/scalars/prisma/client.js'
import { requiredValues } from './fixtures/scalars/values.js'
import { createAdapter, freshDatabase, startServer } from './support/harness.js'

const SCHEMA = new URL('./fixtures/scalars/schema.prisma', import.meta.url).pathname

let prisma: PrismaClient

/** Each caller's scope, by the `X-Scope` header the test sends, and the specimens it holds. */
const SCOPES = {
  db: { where: () => ({ optionalJson: { equals: Prisma.DbNull } }), ids: [3] },
  json: { where: () => ({ optionalJson: { equals: Prisma.JsonNull } }), ids: [2] },
  any: { where: () => ({ optionalJson: { equals: Prisma.AnyNull } }), ids: [2, 3] },
  value: { where: () => ({ optionalJson: { not: Prisma.AnyNull } }), ids: [1] },
  // Only the first specimen has an optionalInt (0), above every int (-2147483648).
  reference: { where: () => ({ int: { lt: prisma.specimen.fields.optionalInt } }), ids: [1] },
} satisfies Record<string, { where: () => Prisma.SpecimenWhereInput; ids: number[] }>

const access: HydraAccess = {
  Specimen: {
    scope: (c) => SCOPES[c.req.header('X-Scope') as keyof typeof SCOPES].where(),
  },
}

let remove: () => Promise<void>
const origins = { prisma: '', compiled: '' }
const closes: Array<() => Promise<void>> = []

beforeAll(async () => {
  const database = await freshDatabase(SCHEMA)
  remove = database.remove
  const adapter = createAdapter(database.url)
  prisma = new PrismaClient({ adapter })
  // A Json value, JSON's null, the database's NULL (left out).
  await prisma.specimen.create({
    data: { id: 1, ...requiredValues, optionalJson: ['a'], optionalInt: 0 },
  })
  await prisma.specimen.create({
    data: { id: 2, ...requiredValues, optionalJson: Prisma.JsonNull },
  })
  await prisma.specimen.create({ data: { id: 3, ...requiredValues } })
  // A sample of each, which embeds its specimen when the caller may see it, else its IRI.
  await prisma.sample.createMany({
    data: [1, 2, 3].map((id) => ({ id, label: `sample ${id}`, specimenId: id })),
  })
  for (const engine of ['prisma', 'compiled'] as const) {
    const app = createHydraApp({ prisma, access, engine })
    const server = await startServer(app.fetch)
    origins[engine] = server.origin
    closes.push(server.close)
  }
})

afterAll(async () => {
  for (const close of closes) await close()
  await prisma?.$disconnect()
  await remove?.()
})

describe('a row scope holding values only the client reads', () => {
  it('holds the rows Prisma selects on both engines, the compiled one handing over', async () => {
    for (const [name, { ids }] of Object.entries(SCOPES)) {
      const answers = []
      for (const origin of [origins.prisma, origins.compiled]) {
        const response = await fetch(`${origin}/specimens`, { headers: { 'X-Scope': name } })
        const body = await response.json()
        expect(response.status, `${name}: ${JSON.stringify(body)}`).toBe(200)
        const members = body['hydra:member'] as Array<{ id: number }>
        expect(
          members.map((member) => member.id),
          name
        ).toEqual(ids)
        answers.push({ body, timing: response.headers.get('Server-Timing') ?? '' })
      }
      const [own, compiled] = answers
      expect(compiled?.body, name).toEqual(own?.body)
      expect(compiled?.timing, name).toContain('handoff')
      expect(own?.timing, name).not.toContain('handoff')
    }
  })

  it('checks the specimens samples embed against it, the compiled engine handing the check over', async () => {
    for (const [name, { ids }] of Object.entries(SCOPES)) {
      const bodies = []
      for (const origin of [origins.prisma, origins.compiled]) {
        const response = await fetch(`${origin}/samples?properties[specimen][]=id`, {
          headers: { 'X-Scope': name },
        })
        const body = await response.json()
        expect(response.status, `${name}: ${JSON.stringify(body)}`).toBe(200)
        // The specimens in the scope embedded, the others their IRI.
        const members = body['hydra:member'] as Array<{ specimen: { id: number } | string }>
        const embedded = members.flatMap(({ specimen }) =>
          typeof specimen === 'object' ? [specimen.id] : []
        )
        expect(embedded, name).toEqual(ids)
        bodies.push(body)
        if (origin === origins.compiled)
          expect(response.headers.get('Server-Timing'), name).toContain('handoff;desc="embed"')
      }
      expect(bodies[1], name).toEqual(bodies[0])
    }
  })
})
