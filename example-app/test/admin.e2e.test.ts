/**
 * API Platform's admin (example-app/admin), built with Vite and served from its own origin, driven
 * by headless Chromium against the example API on another origin (CORS): it discovers the API from
 * the entrypoint and the documentation, lists the first page of books, and its pagination control
 * moves to page 2, whose rows must be the API's page 2. A screenshot of page 2 is saved under
 * test/output/.
 *
 * Needs Chromium at /usr/bin/chromium (`apt-get install -y chromium`); without it the test is
 * skipped with a message, except under CI (`CI` set), where it fails.
 */
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { serveStatic } from '@hono/node-server/serve-static'
import { Hono } from 'hono'
import { type Browser, chromium, type Page } from 'playwright-core'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { emptyDatabase, startServer, type TestDatabase } from './support/harness.js'

const CHROMIUM = '/usr/bin/chromium'
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
const ADMIN = fileURLToPath(new URL('../admin/', import.meta.url))
const OUTPUT = fileURLToPath(new URL('./output/', import.meta.url))

const hasBrowser = existsSync(CHROMIUM)
if (!hasBrowser) {
  const message = `Chromium is not installed at ${CHROMIUM} (apt-get install -y chromium): the admin UI test is skipped.`
  if (process.env.CI) throw new Error(message)
  console.warn(message)
}

let folder: string
let database: TestDatabase
let prisma: PrismaClient
let api: string
let admin: string
let browser: Browser
const closers: Array<() => Promise<void>> = []

beforeAll(async () => {
  if (!hasBrowser) return
  folder = await mkdtemp(path.join(tmpdir(), 'prisma-hydra-admin-'))
  const outDir = path.join(folder, 'admin')
  await build({
    configFile: path.join(ADMIN, 'vite.config.ts'),
    logLevel: 'error',
    build: { outDir, emptyOutDir: true },
  })
  const page = await startServer(
    new Hono().use('*', serveStatic({ root: path.relative(process.cwd(), outDir) })).fetch
  )
  admin = page.origin
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
  const server = await startServer(createApp(prisma, { cors: admin }).fetch)
  api = server.origin
  closers.push(page.close, server.close)
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS })
}, 120_000)

afterAll(async () => {
  await browser?.close()
  for (const close of closers) await close()
  await prisma?.$disconnect()
  await database?.remove()
  if (folder) await rm(folder, { recursive: true, force: true })
})

/** The rows the admin's list shows: each row's cells, as text. */
async function rows(page: Page): Promise<string[][]> {
  return page
    .locator('table tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) =>
        [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim()).filter(Boolean)
      )
    )
}

/** The API's page as the admin asks for it, as the admin shows it: IRI and title first. */
async function apiPage(query: string): Promise<string[][]> {
  const response = await fetch(`${api}/books?${query}`)
  const body = (await response.json()) as {
    'hydra:member': Array<{ '@id': string; title: string; isbn: string }>
  }
  return body['hydra:member'].map((book) => [book['@id'], book.title, book.isbn])
}

describe.skipIf(!hasBrowser)('API Platform admin on the example API', () => {
  it('lists the first page of books, then page 2 through its pagination control', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    const requested: string[] = []
    const failures: string[] = []
    page.on('pageerror', (error) => failures.push(error.message))
    // The admin's own console warnings (React props of its widgets) are not ours; uncaught
    // errors and failed API requests are.
    page.on('response', (response) => {
      if (response.url().startsWith(api) && response.status() >= 400)
        failures.push(`${response.status()} ${response.url()}`)
    })
    page.on('request', (request) => {
      if (request.url().startsWith(`${api}/books?`)) requested.push(request.url())
    })
    await page.goto(`${admin}/?api=${encodeURIComponent(api)}#/books`)
    await expect.poll(async () => (await rows(page)).length, { timeout: 30_000 }).toBe(10)
    const first = (await rows(page)).map((cells) => cells.slice(0, 3))
    expect(first).toEqual(await apiPage('page=1&itemsPerPage=10'))
    await expect(page.getByText('1-10 of 120').count()).resolves.toBe(1)

    await page.getByRole('button', { name: 'Go to page 2' }).click()
    await expect.poll(async () => (await rows(page))[0]?.[0], { timeout: 30_000 }).toBe('/books/11')
    const second = (await rows(page)).map((cells) => cells.slice(0, 3))
    expect(second).toEqual(await apiPage('page=2&itemsPerPage=10'))
    expect(second.map((cells) => cells[0])).toEqual(
      Array.from({ length: 10 }, (_, index) => `/books/${11 + index}`)
    )
    expect(requested.some((url) => new URL(url).searchParams.get('page') === '2')).toBe(true)
    await expect(page.getByText('11-20 of 120').count()).resolves.toBe(1)

    await mkdir(OUTPUT, { recursive: true })
    const screenshot = path.join(OUTPUT, 'admin-books-page-2.png')
    await page.screenshot({ path: screenshot })
    expect(existsSync(screenshot)).toBe(true)
    expect(failures).toEqual([])
    await page.close()
  }, 120_000)
})
