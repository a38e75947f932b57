/**
 * A link to a related row keyed by its own foreign key is read as that key alone
 * (docs/member-shape.md, "What is read"): a user shows its password as the IRI of the Epic Stack's
 * `Password`, keyed by `userId`, which only the password row holds. Whatever the page reads of the
 * user (its every column, or the properties a client names), the statements that read the
 * `Password` table select its `userId`, never its `hash`, which the model hides; a page that does
 * not show the link does not read the table. On test/fixtures/saas, through the driver adapter.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as saas from '#fixtures/saas/hydra/index.js'
import { PrismaClient } from '#fixtures/saas/prisma/client.js'
import { createAdapter, freshDatabase, startServer, type TestDatabase } from './support/harness.js'
import { countRows, type RowCount } from './support/row-count.js'
import { seedSaas } from './support/saas-seed.js'

const SCHEMA = new URL('./fixtures/saas/schema.prisma', import.meta.url).pathname

let prisma: PrismaClient
let database: TestDatabase
let passwords: RowCount<ReturnType<typeof createAdapter>>
let origin: string
let close: () => Promise<void> = async () => {}

beforeAll(async () => {
  database = await freshDatabase(SCHEMA)
  passwords = countRows(createAdapter(database.url), 'Password')
  prisma = new PrismaClient({ adapter: passwords.factory })
  await seedSaas(prisma)
  ;({ origin, close } = await startServer(saas.createHydraApp({ prisma }).fetch))
}, 120_000)

afterAll(async () => {
  await close()
  await prisma?.$disconnect()
  await database?.remove()
})

/** The statements `path` sends that read the Password table, and its members. */
async function passwordReads(path: string) {
  passwords.reset()
  const response = await fetch(`${origin}${path}`)
  const body = (await response.json()) as { 'hydra:member': Record<string, unknown>[] }
  expect(response.status, JSON.stringify(body)).toBe(200)
  return { statements: passwords.statements(), members: body['hydra:member'] }
}

describe("a user's password link reads the password's key, not its hash", () => {
  it.each([
    '/users',
    '/users?properties[]=email&properties[]=password',
    '/users?properties[]=password',
  ])('%s', async (path) => {
    const { statements, members } = await passwordReads(path)
    // The link is read: the users holding a password show its IRI.
    const links = members.flatMap((member) => (member.password ? [member.password] : []))
    expect(links.sort()).toEqual(['/passwords/ckuser0ann', '/passwords/ckuser0bob'])
    expect(statements.length).toBeGreaterThan(0)
    for (const sql of statements) {
      expect(sql).toMatch(/[`"]userId[`"]/)
      expect(sql).not.toMatch(/[`"]hash[`"]/)
    }
  })

  it('a page not showing the link does not read the table', async () => {
    const { statements, members } = await passwordReads('/users?properties[]=email')
    expect(members.length).toBeGreaterThan(0)
    expect(members.every((member) => !('password' in member))).toBe(true)
    expect(statements).toEqual([])
  })
})
