/**
 * API Platform's admin (example-app/admin: `HydraAdmin` with the runtime's preset,
 * `@prisma-hydra/runtime/admin`), built with Vite and served from its own origin, driven by
 * headless Chromium against the example API on another origin (CORS), on the suite's database.
 * Every expectation is read from the API itself, never from the admin: for every collection of
 * the entrypoint, the admin's first page is the API's first page at the server's own page size,
 * its next page the one the API's `next` link leads to, and at every page size it offers its
 * first page holds exactly the collection's first rows, each labelled by the rows it shows and
 * the API's total (`1-10 of 120`, `1-20 of more than 20`); at the largest size the whole
 * collection, walked by the API's own `next` links, is reached through the admin's pagination,
 * and it pages back; columns are labelled by the documented properties; nothing that writes is
 * offered (no create, edit, delete or bulk delete button, no row checkbox). On books, a column
 * header sorts and the title and genre filters narrow the rows, as the API does for the same
 * parameters, and a book's author (a link in the API) opens that author's page; the authors of a
 * page of books, and the books of a page of reviews or loans, are read in one `id[]` request, the
 * only request of the list to the related collection. On the composite-keys fixture, an order line
 * (`orderId=1;productId=3`) is listed and opened at its IRI. Screenshots go to test/output/admin/
 * (its path is printed).
 *
 * Needs Chromium at /usr/bin/chromium (`apt-get install -y chromium`); without it the test is
 * skipped with a message, except under CI (`CI` set), where it fails.
 */
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseHydraDocumentation, type Resource } from '@api-platform/api-doc-parser'
import { serveStatic } from '@hono/node-server/serve-static'
import { Hono } from 'hono'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHydraApp as createCompositeApp } from '#fixtures/composite-keys/hydra/index.js'
import { PrismaClient as CompositeClient } from '#fixtures/composite-keys/prisma/client.js'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { chromiumPresent, launchChromium } from './support/chromium.js'
import {
  createAdapter,
  emptyDatabase,
  freshDatabase,
  startServer,
  type TestDatabase,
} from './support/harness.js'
import { adminBundle } from './support/page-bundle.js'

const COMPOSITE_SCHEMA = fileURLToPath(
  new URL('./fixtures/composite-keys/schema.prisma', import.meta.url)
)
const OUTPUT = fileURLToPath(new URL('./output/admin/', import.meta.url))
/**
 * How long the admin may take to show what is expected (its first page includes discovery), and
 * how often to look: each look is a round trip to the browser, which a busy machine feels.
 */
const SHOWN = { timeout: 30_000, interval: 100 }
/** The bound of a walk through every page of a collection. */
const WALK = 240_000

/** The collections of the example's entrypoint, each a resource of the admin. */
const RESOURCES = [
  'authors',
  'books',
  'reviews',
  'languages',
  'loans',
  'activities',
  'genres',
  'releases',
]

const hasBrowser = chromiumPresent('the admin UI test')

let database: TestDatabase
let prisma: PrismaClient
let api: string
let admin: string
let browser: Browser
/** The resources as the API documentation describes them (api-doc-parser, run here in Node). */
let documented: Map<string, Resource>
const closers: Array<() => Promise<void>> = []

beforeAll(async () => {
  if (!hasBrowser) return
  const outDir = await adminBundle()
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
  const { api: parsed } = await parseHydraDocumentation(api)
  documented = new Map((parsed.resources ?? []).map((resource) => [resource.name, resource]))
  browser = await launchChromium()
  await mkdir(OUTPUT, { recursive: true })
  process.stdout.write(`admin: screenshots in ${OUTPUT}\n`)
}, 120_000)

afterAll(async () => {
  await browser?.close()
  for (const close of closers) await close()
  await prisma?.$disconnect()
  await database?.remove()
})

type Json = Record<string, unknown>

/** A Hydra key of a response, prefixed (`hydra:member`) or not (`member`). */
function hydra(json: Json, key: string): unknown {
  return json[`hydra:${key}`] ?? json[key]
}

async function getJson(pathAndQuery: string): Promise<Json> {
  const response = await fetch(new URL(pathAndQuery, api))
  expect(response.status, pathAndQuery).toBe(200)
  return (await response.json()) as Json
}

const membersOf = (body: Json) => (hydra(body, 'member') ?? []) as Json[]
const nextOf = (body: Json) => {
  const view = hydra(body, 'view') as Json | undefined
  return view ? (hydra(view, 'next') as string | undefined) : undefined
}
/**
 * What the admin shows in a row's first column for a member whose first documented field is
 * `field`: the member's `@id` for `id` (the admin's record id), its value otherwise, as
 * react-admin formats numbers in en-US.
 */
function cellOf(member: Json, field: string): string {
  if (field === 'id') return String(member['@id'])
  const value = member[field]
  return typeof value === 'number' ? value.toLocaleString('en-US') : String(value)
}

/** The whole collection in the API's order, walked by the API's own `next` links. */
async function walkApi(collection: string, field: string): Promise<string[]> {
  const cells: string[] = []
  let next: string | undefined = collection
  for (let pages = 0; next; pages++) {
    expect(pages, `${collection}: more pages than the test walks`).toBeLessThan(100)
    const body = await getJson(next)
    cells.push(...membersOf(body).map((member) => cellOf(member, field)))
    next = nextOf(body)
  }
  return cells
}

interface Table {
  headers: string[]
  rows: string[][]
}

/** The admin's list as text: its column headers (without empty ones) and each row's cells. */
async function tableOf(page: Page): Promise<Table> {
  return page.evaluate(() => ({
    headers: [...document.querySelectorAll('table thead th')]
      .map((th) => (th.textContent ?? '').trim())
      .filter(Boolean),
    rows: [...document.querySelectorAll('table tbody tr')].map((tr) =>
      [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())
    ),
  }))
}

const firstColumn = async (page: Page) => (await tableOf(page)).rows.map((cells) => cells[0])

interface AdminPage {
  page: Page
  /** Uncaught errors in the page and failed requests to the API. */
  failures: string[]
  /** The URLs of the admin's requests to the API. */
  requests: URL[]
}

async function openAdmin(route: string, on = api): Promise<AdminPage> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, locale: 'en-US' })
  const failures: string[] = []
  const requests: URL[] = []
  page.on('pageerror', (error) => failures.push(error.message))
  // The admin's own console warnings (React props of its widgets) are not ours; uncaught
  // errors and failed API requests are.
  page.on('response', (response) => {
    if (response.url().startsWith(on) && response.status() >= 400)
      failures.push(`${response.status()} ${response.url()}`)
  })
  page.on('request', (request) => {
    if (request.url().startsWith(on)) requests.push(new URL(request.url()))
  })
  await page.goto(`${admin}/?api=${encodeURIComponent(on)}#${route}`)
  return { page, failures, requests }
}

/**
 * The label react-admin's pagination gives the page of `shown` rows from row `start` (0 for the
 * first page): `1-10 of 75` with a count, `1-20 of more than 20` with more rows after them alone,
 * and without a count on the last page the rows it ends with (`26-42 of 42`).
 */
function paginationLabel(shown: number, total: unknown, more: boolean, start = 0) {
  const rows = `${start + 1}-${start + shown}`
  if (typeof total === 'number') return `${rows} of ${total}`
  return more ? `${rows} of more than ${start + shown}` : `${rows} of ${start + shown}`
}

/** How many elements show `text`, exactly, in the page. */
const shownText = (page: Page, text: string) => page.getByText(text, { exact: true }).count()

/** The property names a column header stands for: "Published at" for `publishedAt`. */
const asProperty = (header: string) => header.replaceAll(' ', '').toLowerCase()

describe.skipIf(!hasBrowser)('API Platform admin on the example API', () => {
  it("lists exactly the entrypoint's collections", async () => {
    const entrypoint = await getJson('/')
    const collections = Object.entries(entrypoint)
      .filter(([key]) => !key.startsWith('@'))
      .map(([, value]) => String(value).slice(1))
    expect(collections).toEqual(RESOURCES)
    const { page, failures } = await openAdmin('/')
    const menu = page.getByRole('menuitem')
    await expect
      .poll(() => menu.allTextContents(), SHOWN)
      .toEqual(RESOURCES.map((name) => name.charAt(0).toUpperCase() + name.slice(1)))
    expect(failures).toEqual([])
    await page.close()
  })

  it.each(RESOURCES)(
    '%s: the first page, the next one and the first page of the smallest and largest size are the API rows',
    async (resource) => {
      const schema = documented.get(resource)
      const fields = (schema?.readableFields ?? []).map((field) => field.name)
      const field = fields[0] as string
      const first = await getJson(`/${resource}`)
      const all = await walkApi(`/${resource}`, field)
      expect(all.length).toBeGreaterThan(0)
      const firstPage = membersOf(first).map((member) => cellOf(member, field))
      const next = nextOf(first)
      // The count of the pages the admin asks for by number (the cursor collection counts those).
      const total = hydra(await getJson(`/${resource}?page=1&itemsPerPage=2`), 'totalItems')
      const { page, failures } = await openAdmin(`/${resource}`)

      // Page 1 is the API's page 1, at the server's own size, labelled by the rows it shows and
      // the API's count, or "more than" them where the API gives a next page alone.
      await expect.poll(() => firstColumn(page), SHOWN).toEqual(firstPage)
      const label = paginationLabel(firstPage.length, total, next !== undefined)
      await expect.poll(() => shownText(page, label), SHOWN).toBe(1)
      await page.screenshot({ path: path.join(OUTPUT, `${resource}.png`), fullPage: true })

      // Columns: the documented properties, each by its own name.
      const { headers } = await tableOf(page)
      expect(headers.map(asProperty)).toEqual(fields.map((name) => name.toLowerCase()))

      // Read-only: nothing creates, edits, deletes or selects rows for a bulk action.
      for (const name of [/^create$/i, /^edit$/i, /^delete$/i])
        await expect(page.getByRole('button', { name }).count()).resolves.toBe(0)
      await expect(page.getByRole('link', { name: /^(create|edit)$/i }).count()).resolves.toBe(0)
      await expect(page.getByRole('checkbox').count()).resolves.toBe(0)

      // The next page is the one the API's next link leads to; then back to the first.
      const nextButton = page.getByRole('button', { name: 'Go to next page' })
      if (next) {
        const nextPage = membersOf(await getJson(next)).map((member) => cellOf(member, field))
        await nextButton.click()
        await expect.poll(() => firstColumn(page), SHOWN).toEqual(nextPage)
        await page.getByRole('button', { name: 'Go to previous page' }).click()
        await expect.poll(() => firstColumn(page), SHOWN).toEqual(firstPage)
      }

      // The smallest and the largest page size react-admin offers, whatever the server serves:
      // the first rows of the collection, as many as the size, labelled by them.
      const sizes = page.getByRole('combobox')
      await sizes.click()
      await page.getByRole('option').first().waitFor(SHOWN)
      const offered = (await page.getByRole('option').allTextContents()).map(Number)
      await page.keyboard.press('Escape')
      expect(offered.length).toBeGreaterThan(1)
      // The size the list opened at is offered, and is the one chosen (the reviews' 20).
      if (next) {
        expect(offered).toContain(firstPage.length)
        await expect.poll(() => sizes.textContent(), SHOWN).toBe(String(firstPage.length))
      }
      offered.sort((a, b) => a - b)
      for (const offer of [offered[0] as number, offered.at(-1) as number]) {
        await sizes.click()
        await page.getByRole('option', { name: String(offer), exact: true }).click()
        await expect.poll(() => firstColumn(page), SHOWN).toEqual(all.slice(0, offer))
        const sized = paginationLabel(Math.min(offer, all.length), total, all.length > offer)
        await expect.poll(() => shownText(page, sized), SHOWN).toBe(1)
      }

      // The rows page after page through the admin's pagination, up to three pages (where that is
      // every page, the last one offers no next page), then back two pages.
      const size = offered.at(-1) as number
      const pages = Math.max(1, Math.ceil(all.length / size))
      const walked = Math.min(pages, 3)
      const slice = (index: number) => all.slice(index * size, (index + 1) * size)
      for (let index = 1; index < walked; index++) {
        await nextButton.click()
        await expect.poll(() => firstColumn(page), SHOWN).toEqual(slice(index))
      }
      if (walked === pages && pages > 1) {
        await expect(nextButton.isDisabled()).resolves.toBe(true)
      }
      if (walked > 1) {
        for (let index = walked - 2; index >= Math.max(0, walked - 3); index--) {
          await page.getByRole('button', { name: 'Go to previous page' }).click()
          await expect.poll(() => firstColumn(page), SHOWN).toEqual(slice(index))
        }
      }
      expect(failures).toEqual([])
      await page.close()
    },
    WALK
  )

  it.each([
    ['loans', 50, 2],
    ['releases', 25, 2],
  ] as const)(
    '%s opened fresh at %i a page, page %i: the rows asked, labelled by them',
    async (resource, perPage, number) => {
      // Loans are capped at 30 a page, releases served 10 a page: neither serves the size asked.
      const field = (documented.get(resource)?.readableFields ?? [])[0]?.name as string
      const all = await walkApi(`/${resource}`, field)
      const total = hydra(await getJson(`/${resource}?page=1&itemsPerPage=2`), 'totalItems')
      const start = (number - 1) * perPage
      const rows = all.slice(start, start + perPage)
      expect(rows.length).toBeGreaterThan(0)
      const more = all.length > start + perPage
      // A new tab: the preset learns each collection's paging as it opens, on this page.
      const { page, failures } = await openAdmin(`/${resource}?perPage=${perPage}&page=${number}`)
      await expect.poll(() => firstColumn(page), SHOWN).toEqual(rows)
      const label = paginationLabel(rows.length, total, more, start)
      await expect.poll(() => shownText(page, label), SHOWN).toBe(1)
      await page.screenshot({ path: path.join(OUTPUT, `${resource}-fresh.png`), fullPage: true })
      expect(failures).toEqual([])
      await page.close()
    }
  )

  /** The books the admin shows: IRI, title, isbn and genre of each row. */
  const bookRows = async (page: Page) =>
    (await tableOf(page)).rows.map((cells) => cells.slice(0, 4))
  /** The API's books for `query`, as the admin shows them. */
  const apiBooks = async (query: string) =>
    membersOf(await getJson(`/books?${query}`)).map((book) => [
      book['@id'],
      book.title,
      book.isbn,
      book.genre,
    ])
  /** The query of the admin's last request for a page of books. */
  const lastBooksQuery = (requests: URL[]) =>
    requests.filter((url) => url.pathname === '/books' && url.searchParams.has('page')).at(-1)
      ?.searchParams

  it('books: a column header sorts them as the API does for the same order', async () => {
    const { page, failures, requests } = await openAdmin('/books')
    await expect.poll(() => bookRows(page), SHOWN).toEqual(await apiBooks('page=1'))
    for (const [label, order] of [
      ['Sort by title ascending', 'ASC'],
      ['Sort by title descending', 'DESC'],
    ] as const) {
      await page.getByRole('button', { name: label }).click()
      const expected = await apiBooks(`order[title]=${order}&page=1&itemsPerPage=10`)
      await expect.poll(() => bookRows(page), SHOWN).toEqual(expected)
      expect(lastBooksQuery(requests)?.get('order[title]')).toBe(order)
    }
    // The order is the server's, and not its default one.
    expect(await apiBooks('order[title]=ASC&page=1')).not.toEqual(await apiBooks('page=1'))
    await page.screenshot({ path: path.join(OUTPUT, 'books-by-title.png'), fullPage: true })
    expect(failures).toEqual([])
    await page.close()
  })

  it('books: the title and genre filters narrow them as the API does', async () => {
    const { page, failures, requests } = await openAdmin('/books')
    await expect.poll(() => bookRows(page), SHOWN).toEqual(await apiBooks('page=1'))
    const filter = async (label: string, value: string) => {
      await page.getByRole('button', { name: 'Add filter' }).click()
      await page.getByRole('menuitemcheckbox', { name: label }).click()
      await page.getByRole('textbox', { name: label }).fill(value)
    }

    await filter('Title', 'Winter')
    const byTitle = await getJson('/books?title=Winter&page=1&itemsPerPage=10')
    await expect.poll(() => bookRows(page), SHOWN).toEqual(await apiBooks('title=Winter&page=1'))
    expect(lastBooksQuery(requests)?.get('title')).toBe('Winter')
    const titled = hydra(byTitle, 'totalItems') as number
    await expect.poll(() => page.getByText(`1-10 of ${titled}`).count(), SHOWN).toBe(1)
    for (const [, title] of await bookRows(page)) expect(title?.toLowerCase()).toContain('winter')

    await filter('Genre', 'POETRY')
    const both = 'title=Winter&genre=POETRY&page=1&itemsPerPage=10'
    await expect.poll(() => bookRows(page), SHOWN).toEqual(await apiBooks(both))
    const narrowed = await bookRows(page)
    expect(narrowed.length).toBeGreaterThan(0)
    expect(narrowed.length).toBeLessThan(Math.min(titled, 10))
    for (const [, title, , genre] of narrowed) {
      expect(title?.toLowerCase()).toContain('winter')
      expect(genre).toBe('POETRY')
    }
    expect(lastBooksQuery(requests)?.get('genre')).toBe('POETRY')
    await page.screenshot({ path: path.join(OUTPUT, 'books-filtered.png'), fullPage: true })

    // An emptied input is no filter: the genre's books, whatever their title.
    await page.getByRole('textbox', { name: 'Title' }).fill('')
    await expect.poll(() => bookRows(page), SHOWN).toEqual(await apiBooks('genre=POETRY&page=1'))
    expect(lastBooksQuery(requests)?.has('title')).toBe(false)
    expect(failures).toEqual([])
    await page.close()
  })

  it("a book's page shows the API's item, its documented fields, and nothing to edit", async () => {
    const book = await getJson('/books/1')
    const { page, failures } = await openAdmin(`/books/${encodeURIComponent('/books/1')}/show`)
    await page.locator('.RaShow-card').getByText(String(book.title), { exact: true }).waitFor(SHOWN)
    // Each documented field under its own name, with the API's value.
    const labels = await page.locator('.RaLabeled-label').allTextContents()
    const fields = (documented.get('books')?.readableFields ?? []).map((field) => field.name)
    expect(labels.map(asProperty)).toEqual(fields.map((name) => name.toLowerCase()))
    await expect(page.getByText(String(book.isbn), { exact: true }).count()).resolves.toBe(1)
    for (const name of [/^edit$/i, /^delete$/i])
      await expect(page.getByRole('button', { name }).count()).resolves.toBe(0)
    await expect(page.getByRole('link', { name: /^edit$/i }).count()).resolves.toBe(0)
    expect(failures).toEqual([])
    await page.close()
  })

  it("a book's author is a link that opens the author's page", async () => {
    const books = membersOf(await getJson('/books'))
    const book = books[2] as Json
    const authorIri = String(book.author)
    expect(authorIri).toMatch(/^\/authors\/\d+$/)
    const author = await getJson(authorIri)
    const { page, failures } = await openAdmin('/books')
    await expect.poll(() => firstColumn(page), SHOWN).toEqual(books.map((item) => item['@id']))
    // The third row's author column: the author's name (schema:name), linking to the author.
    const row = page.locator('table tbody tr').nth(2)
    const link = row.getByRole('link', { name: String(author.name), exact: true })
    await link.waitFor(SHOWN)
    await link.click()
    await page.waitForURL(`**#/authors/${encodeURIComponent(authorIri)}/show`, SHOWN)
    // The author's page (the book list may still be on screen for a moment after the URL moved).
    const shown = page.locator('.RaShow-card')
    await shown.getByText(String(author.name), { exact: true }).waitFor(SHOWN)
    await expect(shown.getByText(authorIri, { exact: true }).count()).resolves.toBe(1)
    await expect(shown.getByText(String(author.country), { exact: true }).count()).resolves.toBe(1)
    await page.screenshot({ path: path.join(OUTPUT, 'author-of-a-book.png'), fullPage: true })
    expect(failures).toEqual([])
    await page.close()
  })

  it.each([
    ['books', 'author', 'authors', 'name'],
    ['reviews', 'book', 'books', 'title'],
    ['loans', 'book', 'books', 'title'],
  ] as const)(
    '%s: reads the %s of a page in one request to /%s, through the id[] filter',
    async (list, relation, target, name) => {
      const rows = membersOf(await getJson(`/${list}`))
      const iris = [...new Set(rows.map((row) => String(row[relation])))]
      expect(iris.length).toBeGreaterThan(2)
      // Each related item is shown by its schema:name (an author's name, a book's title).
      const names = await Promise.all(iris.map(async (iri) => String((await getJson(iri))[name])))
      const { page, failures, requests } = await openAdmin(`/${list}`)
      await expect.poll(async () => (await tableOf(page)).rows.length, SHOWN).toBe(rows.length)
      for (const shown of new Set(names))
        await page.getByRole('link', { name: shown, exact: true }).first().waitFor(SHOWN)
      // The list's requests to the related collection (the preset's read of each collection's
      // first page, as the admin opens, is none of them: it has no query).
      const related = requests.filter(
        (url) =>
          url.pathname.startsWith(`/${target}`) && (url.pathname !== `/${target}` || url.search)
      )
      const byIds = related.filter((url) =>
        [...url.searchParams.keys()].some((key) => key.startsWith('id['))
      )
      process.stdout.write(
        `admin: ${rows.length} ${list} referencing ${iris.length} ${target} shown with ${related.length} requests to /${target} (${byIds.length} by id[])\n`
      )
      // No related item read alone: one page of them, named by their IRIs (`id[0]=/books/3&…`).
      expect(related.filter((url) => url.pathname !== `/${target}`)).toEqual([])
      expect(byIds).toHaveLength(1)
      const asked = [...(byIds[0] as URL).searchParams].filter(([key]) => key.startsWith('id['))
      expect(new Set(asked.map(([, value]) => value))).toEqual(new Set(iris))
      // And nothing else: the preset knows the collection's hydra:search (whether it takes id).
      expect(related).toHaveLength(1)
      await page.screenshot({ path: path.join(OUTPUT, `${list}-${relation}.png`), fullPage: true })
      expect(failures).toEqual([])
      await page.close()
    }
  )
})

describe.skipIf(!hasBrowser)('API Platform admin on composite keys', () => {
  let compositeApi: string

  beforeAll(async () => {
    const composite = await freshDatabase(COMPOSITE_SCHEMA)
    const client = new CompositeClient({ adapter: createAdapter(composite.url) })
    await client.order.createMany({ data: [1, 2].map((id) => ({ id, label: `Order ${id}` })) })
    await client.product.createMany({ data: [1, 3].map((id) => ({ id, name: `Product ${id}` })) })
    await client.orderLine.createMany({
      data: [
        { orderId: 1, productId: 1, quantity: 2 },
        { orderId: 1, productId: 3, quantity: 7 },
        { orderId: 2, productId: 1, quantity: 5 },
      ],
    })
    const server = await startServer(createCompositeApp({ prisma: client, cors: admin }).fetch)
    compositeApi = server.origin
    closers.push(server.close, () => client.$disconnect(), composite.remove)
  }, 120_000)

  it('lists order lines and opens one at its composite IRI, with its links', async () => {
    const response = await fetch(new URL('/order-lines', compositeApi))
    const lines = membersOf((await response.json()) as Json)
    const { page, failures } = await openAdmin('/order-lines', compositeApi)
    await expect.poll(async () => (await tableOf(page)).rows.length, SHOWN).toBe(lines.length)
    // The second row's Show opens the line at its IRI, `orderId=1;productId=3`.
    await page.locator('table tbody tr').nth(1).getByRole('link', { name: /show/i }).click()
    const iri = String(lines[1]?.['@id'])
    expect(iri).toBe('/order-lines/orderId=1;productId=3')
    await page.waitForURL(`**#/order-lines/${encodeURIComponent(iri)}/show`, SHOWN)
    const shown = page.locator('.RaShow-card')
    await shown.getByText('7', { exact: true }).waitFor(SHOWN)
    await expect(shown.getByText('/orders/1', { exact: true }).count()).resolves.toBe(1)
    await expect(shown.getByText(`${iri}/notes`, { exact: true }).count()).resolves.toBe(1)
    await page.screenshot({ path: path.join(OUTPUT, 'order-line.png'), fullPage: true })
    expect(failures).toEqual([])
    await page.close()
  })
})
