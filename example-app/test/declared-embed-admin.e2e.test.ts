/**
 * Declared embeds as API Platform's clients read them, on test/fixtures/embeds: what
 * `@api-platform/api-doc-parser` makes of loans' embedded book (to-one) and books' embedded first
 * loans (to-many, capped), and what API Platform's admin (example-app/admin, built with Vite,
 * driven in headless Chromium, on another origin) shows of them in its lists and item pages.
 * Expectations of rows are read from the API. Screenshots go to test/output/admin/.
 *
 * The browser part needs Chromium at /usr/bin/chromium (`apt-get install -y chromium`); without
 * it that part is skipped with a message, except under CI (`CI` set), where it fails.
 */
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Field, parseHydraDocumentation } from '@api-platform/api-doc-parser'
import { serveStatic } from '@hono/node-server/serve-static'
import { Hono } from 'hono'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHydraApp } from '#fixtures/embeds/hydra/index.js'
import { PrismaClient } from '#fixtures/embeds/prisma/client.js'
import { chromiumPresent, launchChromium } from './support/chromium.js'
import { EMBEDS_SCHEMA } from './support/embeds-app.js'
import { createAdapter, freshDatabase, startServer, type TestDatabase } from './support/harness.js'
import { seedLibrary } from './support/library-rows.js'
import { adminBundle } from './support/page-bundle.js'

const OUTPUT = fileURLToPath(new URL('./output/admin/', import.meta.url))
/** How long the admin may take to show a page (discovery included), and how often to look. */
const SHOWN = { timeout: 30_000, interval: 100 }

const hasBrowser = chromiumPresent('the admin part of the declared-embed client test')

let prisma: PrismaClient
let database: TestDatabase
let origin: string
let admin: string
let browser: Browser | undefined
const closers: Array<() => Promise<void>> = []

beforeAll(async () => {
  database = await freshDatabase(EMBEDS_SCHEMA)
  prisma = new PrismaClient({ adapter: createAdapter(database.url) })
  await seedLibrary(prisma)
  if (hasBrowser) {
    const outDir = await adminBundle()
    const page = await startServer(
      new Hono().use('*', serveStatic({ root: path.relative(process.cwd(), outDir) })).fetch
    )
    admin = page.origin
    closers.push(page.close)
    browser = await launchChromium()
    await mkdir(OUTPUT, { recursive: true })
  }
  const api = await startServer(createHydraApp({ prisma, ...(admin ? { cors: admin } : {}) }).fetch)
  origin = api.origin
  closers.push(api.close)
}, 120_000)

afterAll(async () => {
  await browser?.close()
  for (const close of closers) await close()
  await prisma?.$disconnect()
  await database?.remove()
})

type Json = Record<string, unknown>

/** A field as api-doc-parser read it: its type, range and relation. */
function shapeOf(field: Field | undefined) {
  return {
    type: field?.type,
    range: field?.range,
    embedded: field?.embedded?.name ?? null,
    reference: field?.reference === null ? null : 'set',
    maxCardinality: field?.maxCardinality ?? null,
  }
}

describe("declared embeds to API Platform's api-doc-parser", () => {
  it('reads the to-one embed as an embedded book, the to-many one as a string', async () => {
    const { api } = await parseHydraDocumentation(origin)
    const fieldOf = (resource: string, name: string) =>
      api.resources
        ?.find((candidate) => candidate.name === resource)
        ?.fields?.find((field) => field.name === name)
    expect(shapeOf(fieldOf('loans', 'book'))).toStrictEqual({
      type: 'string',
      range: `${origin}/docs.jsonld#Book`,
      embedded: 'books',
      reference: null,
      maxCardinality: 1,
    })
    // The collection's class, hydra:Collection, is no resource of the API: neither embedded nor
    // a reference, of no cardinality; its description says what it holds.
    const loans = fieldOf('books', 'loans')
    expect(shapeOf(loans)).toStrictEqual({
      type: 'string',
      range: 'http://www.w3.org/ns/hydra/core#Collection',
      embedded: null,
      reference: null,
      maxCardinality: null,
    })
    expect(loans?.description).toContain('a hydra:Collection holding at most 3 related Loan items')
  })
})

/** The admin's list or item page as text: the list's headers and rows, or the item's card. */
async function shown(page: Page) {
  return page.evaluate(() => ({
    headers: [...document.querySelectorAll('table thead th')]
      .map((th) => (th.textContent ?? '').trim())
      .filter(Boolean),
    rows: [...document.querySelectorAll('table tbody tr')].map((tr) =>
      [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())
    ),
    card: document.querySelector('.RaShow-card')?.textContent ?? '',
  }))
}

async function openAdmin(route: string): Promise<{ page: Page; failures: string[] }> {
  const page = await (browser as Browser).newPage({
    viewport: { width: 1440, height: 900 },
    locale: 'en-US',
  })
  const failures: string[] = []
  page.on('pageerror', (error) => failures.push(error.message))
  await page.goto(`${admin}/?api=${encodeURIComponent(origin)}#${route}`)
  return { page, failures }
}

async function members(path: string): Promise<Json[]> {
  const response = await fetch(`${origin}${path}`)
  return ((await response.json()) as Json)['hydra:member'] as Json[]
}

describe.skipIf(!hasBrowser)("declared embeds in API Platform's admin", () => {
  for (const { resource, relation, header } of [
    { resource: 'loans', relation: 'book', header: 'Book' },
    { resource: 'books', relation: 'loans', header: 'Loans' },
  ]) {
    it(`shows each of ${resource}' embedded ${relation} as "[object Object]"`, async () => {
      const rows = await members(`/${resource}`)
      expect(rows.every((row) => typeof row[relation] === 'object')).toBe(true)
      const { page, failures } = await openAdmin(`/${resource}`)
      await expect
        .poll(async () => (await shown(page)).rows.map((cells) => cells[0]), SHOWN)
        .toStrictEqual(rows.map((row) => row['@id']))
      const { headers, rows: cells } = await shown(page)
      const column = headers.indexOf(header)
      expect(column, headers.join(', ')).toBeGreaterThan(0)
      expect(cells.map((row) => row[column])).toStrictEqual(rows.map(() => '[object Object]'))
      await page.screenshot({ path: path.join(OUTPUT, `embeds-${resource}.png`), fullPage: true })
      // An item's page shows it the same way.
      const iri = String(rows[0]?.['@id'])
      const item = await openAdmin(`/${resource}/${encodeURIComponent(iri)}/show`)
      await expect.poll(async () => (await shown(item.page)).card, SHOWN).toContain(iri)
      expect((await shown(item.page)).card).toContain(`${header}[object Object]`)
      expect([...failures, ...item.failures]).toStrictEqual([])
      await page.close()
      await item.page.close()
    })
  }
})
