/**
 * A page reads the columns it shows (docs/member-shape.md, "What is read"): where a request names
 * its properties (`properties[]=borrower`), the page statement of either engine selects those
 * fields' columns, the foreign key of a link it shows, the items' key and the fields its keyset
 * orders by, and no other column of the table; both engines answer byte for byte alike. On
 * test/fixtures/embeds, its loans seen through the statements that read the Loan table at the
 * driver adapter (the compiled engine's own statements go through the same shared adapter).
 */

import { shareAdapter } from '@prisma-hydra/runtime'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PrismaClient } from '#fixtures/embeds/prisma/client.js'
import { EMBEDS_SCHEMA, embedsOnBothEngines } from './support/embeds-app.js'
import { createAdapter, freshDatabase, type TestDatabase } from './support/harness.js'
import { seedLibrary } from './support/library-rows.js'
import { countRows, type RowCount } from './support/row-count.js'

const SECRET = 'shown-columns secret'
const COLUMNS = ['id', 'borrower', 'loanedAt', 'returnedAt', 'bookId'] as const

let prisma: PrismaClient
let database: TestDatabase
let loans: RowCount<ReturnType<typeof createAdapter>>
let origins: string[] = []
let close: () => Promise<void> = async () => {}

beforeAll(async () => {
  database = await freshDatabase(EMBEDS_SCHEMA)
  loans = countRows(createAdapter(database.url), 'Loan')
  const adapter = shareAdapter(loans.factory)
  prisma = new PrismaClient({ adapter })
  await seedLibrary(prisma)
  ;({ origins, close } = await embedsOnBothEngines(SECRET, { prisma, adapter }))
}, 120_000)

afterAll(async () => {
  await close()
  await prisma?.$disconnect()
  await database?.remove()
})

/** The Loan columns the page statements of `path` select, and the answer's body. */
async function columnsRead(origin: string, path: string) {
  loans.reset()
  const response = await fetch(`${origin}${path}`)
  const body = await response.text()
  expect(response.status, body).toBe(200)
  const selected = loans
    .statements()
    .filter((sql) => /^\s*SELECT/i.test(sql))
    .map((sql) => sql.slice(0, sql.search(/\bFROM\b/i)))
  expect(selected.length).toBeGreaterThan(0)
  const read = COLUMNS.filter((column) =>
    selected.some((sql) => new RegExp(`[\`"]${column}[\`"]`).test(sql))
  )
  return { read, body }
}

describe('a page selects the columns it shows, its key and its keyset', () => {
  it.each([
    ['/loans?properties[]=borrower', ['id', 'borrower']],
    ['/loans?properties[]=borrower&properties[]=book', ['id', 'borrower', 'bookId']],
    ['/loans?properties[book][]=title', ['id', 'bookId']],
    // Its order is a keyset a streamed answer pages by: read whatever the request pages.
    ['/loans/recent?properties[]=returnedAt&page=2', ['id', 'loanedAt', 'returnedAt']],
    ['/loans?properties[]=borrower&pagination=false', ['id', 'borrower']],
    ['/loans/feed?properties[]=borrower', ['id', 'borrower', 'loanedAt']],
  ])('%s reads %j', async (path, expected) => {
    const [own, compiled] = origins as [string, string]
    const { read, body } = await columnsRead(own, path)
    expect(read).toEqual(expected)
    const byCompiled = await columnsRead(compiled, path)
    expect(byCompiled.read).toEqual(expected)
    expect(byCompiled.body).toBe(body)
  })

  it("follows a cursor feed's next page reading its keyset", async () => {
    const [own, compiled] = origins as [string, string]
    const first = JSON.parse((await columnsRead(own, '/loans/feed?properties[]=returnedAt')).body)
    const next = first['hydra:view']['hydra:next'] as string
    expect(next).toContain('loanedAt')
    const { read, body } = await columnsRead(own, next)
    expect(read).toEqual(['id', 'loanedAt', 'returnedAt'])
    const byCompiled = await columnsRead(compiled, next)
    expect(byCompiled.read).toEqual(['id', 'loanedAt', 'returnedAt'])
    expect(byCompiled.body).toBe(body)
  })

  it('reads every column when no property is named', async () => {
    for (const origin of origins) {
      const { read } = await columnsRead(origin, '/loans?page=1')
      expect(read).toEqual([...COLUMNS])
    }
  })
})
