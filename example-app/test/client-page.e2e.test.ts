/**
 * The example's client page (example-app/client, docs/clients.md), built with Vite and served
 * from its own origin, driven by headless Chromium against the example API on another origin
 * (CORS), on the suite's database (SQLite and PostgreSQL). The activity feed, an infinite list
 * keeping three pages over the page walker and TanStack Query, is scrolled to its end and back
 * to its start: every list it shows on the way is a run of the activities in the database's order
 * with none missing or repeated, pages are dropped and read again by their `previous` links, and
 * every activity is shown. The authors' table jumps to the last page by its link and shows the
 * database's last authors. Screenshots go to test/output/client/.
 *
 * Needs Chromium at /usr/bin/chromium (`apt-get install -y chromium`); without it the test is
 * skipped with a message, except under CI (`CI` set), where it fails.
 */
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { serveStatic } from '@hono/node-server/serve-static'
import { Hono } from 'hono'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { chromiumPresent, launchChromium } from './support/chromium.js'
import { emptyDatabase, startServer, TEST_DATABASE, type TestDatabase } from './support/harness.js'
import { clientBundle } from './support/page-bundle.js'

const OUTPUT = fileURLToPath(new URL('./output/client/', import.meta.url))
/** How long the page may take to show what is expected, and how often to look. */
const SHOWN = { timeout: 30_000, interval: 100 }
/** The page size of the feed (client/api.ts) and the pages it keeps (client/feed.ts). */
const FEED_PAGE = 25
const KEPT = 3

const hasBrowser = chromiumPresent('the client page test')

let database: TestDatabase
let prisma: PrismaClient
let browser: Browser
let page: Page
const closers: Array<() => Promise<void>> = []

beforeAll(async () => {
  if (!hasBrowser) return
  const outDir = await clientBundle()
  const site = await startServer(
    new Hono().use('*', serveStatic({ root: path.relative(process.cwd(), outDir) })).fetch
  )
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
  const server = await startServer(createApp(prisma, { cors: site.origin }).fetch)
  closers.push(site.close, server.close)
  browser = await launchChromium()
  page = await browser.newPage({ viewport: { width: 1200, height: 800 } })
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto(`${site.origin}/?api=${encodeURIComponent(server.origin)}`)
  await mkdir(OUTPUT, { recursive: true })
  closers.push(async () => expect(errors).toEqual([]))
}, 120_000)

afterAll(async () => {
  await browser?.close()
  for (const close of closers) await close()
  await prisma?.$disconnect()
  await database?.remove()
})

/** What the feed shows: its activities' IRIs and what it says of its ends. */
interface FeedState {
  ids: string[]
  next: string
  previous: string
  fetching: string
  error: string
}

const feedState = (): Promise<FeedState> =>
  page.$eval('#feed', (list) => {
    const element = list as HTMLElement
    return {
      ids: [...element.querySelectorAll<HTMLElement>('li.activity')].map(
        (item) => item.dataset.id ?? ''
      ),
      next: element.dataset.hasNext ?? '',
      previous: element.dataset.hasPrevious ?? '',
      fetching: element.dataset.fetching ?? '',
      error: element.dataset.error ?? '',
    }
  })

/**
 * Scrolls the feed's edge (`last` or `first`) into view until the feed has no more that way,
 * checking every list shown on the way against `order`; returns every activity shown.
 */
async function scrollFeed(order: string[], edge: 'last' | 'first'): Promise<Set<string>> {
  const shown = new Set<string>()
  const more = edge === 'last' ? 'next' : 'previous'
  for (let step = 0; step < order.length; step += 1) {
    const state = await settled()
    expect(state.error).toBe('')
    const start = order.indexOf(state.ids[0] ?? '')
    expect(start, 'the feed shows an activity not in the database').toBeGreaterThanOrEqual(0)
    expect(state.ids).toEqual(order.slice(start, start + state.ids.length))
    expect(state.ids.length).toBeLessThanOrEqual(KEPT * FEED_PAGE)
    for (const id of state.ids) shown.add(id)
    if (state[more] === 'false') return shown
    // A wheel over the list, as a reader scrolls: headless Chromium may draw no frame after a
    // scroll made by script alone, and a browser sends the scroll event with a frame.
    const scroll = async () => {
      await page.hover('#feed')
      await page.mouse.wheel(0, edge === 'last' ? 100_000 : -100_000)
    }
    await scroll()
    // Until the feed shows other activities (or its end): a reader at rest there scrolls again.
    await expect
      .poll(async () => {
        const now = await feedState()
        if (now.fetching !== 'false') return 'reading'
        if (now.error !== '' || now[more] === 'false' || !same(now.ids, state.ids)) return 'moved'
        await scroll()
        return `still at ${now.ids.at(edge === 'last' ? -1 : 0)}`
      }, SHOWN)
      .toBe('moved')
  }
  throw new Error(`the feed did not reach its ${edge} activity in ${order.length} scrolls`)
}

const same = (a: string[], b: string[]) => a.length === b.length && a.every((id, i) => id === b[i])

/** The feed once it shows activities and reads nothing. */
async function settled(): Promise<FeedState> {
  await expect
    .poll(async () => {
      const state = await feedState()
      return state.fetching === 'false' && (state.ids.length > 0 || state.error !== '')
    }, SHOWN)
    .toBe(true)
  return feedState()
}

describe.skipIf(!hasBrowser)(`the client page on ${TEST_DATABASE}`, () => {
  it('scrolls the cursor feed to its end and back, each activity once, in order', async () => {
    const rows = await prisma.activity.findMany({
      orderBy: [{ occurredAt: 'desc' }, { id: 'desc' }],
    })
    const order = rows.map((row) => `/activities/${row.id}`)
    const first = await settled()
    expect(first.ids).toEqual(order.slice(0, FEED_PAGE))
    expect(first.previous).toBe('false')
    const down = await scrollFeed(order, 'last')
    const end = await feedState()
    expect(end.ids.at(-1)).toBe(order.at(-1))
    // The first pages were dropped on the way: coming back reads them by `previous` links.
    expect(end.ids[0]).not.toBe(order[0])
    expect(down.size).toBe(order.length)
    await page.screenshot({ path: path.join(OUTPUT, `feed-end-${TEST_DATABASE}.png`) })
    const up = await scrollFeed(order, 'first')
    const start = await feedState()
    expect(start.ids.slice(0, FEED_PAGE)).toEqual(order.slice(0, FEED_PAGE))
    expect(up.size).toBe(order.length)
  }, 240_000)

  it('jumps the authors table to the last page by its link', async () => {
    const authors = (await prisma.author.findMany({ orderBy: { id: 'asc' } })).map(
      (row) => `/authors/${row.id}`
    )
    const rows = () =>
      page.$$eval('#authors tbody tr', (items) =>
        items.map((item) => (item as HTMLElement).dataset.id ?? '')
      )
    await expect.poll(rows, SHOWN).toEqual(authors.slice(0, 10))
    expect(await page.isDisabled('#authors-previous')).toBe(true)
    await page.click('#authors-last')
    const lastStart = Math.floor((authors.length - 1) / 10) * 10
    const last = authors.slice(lastStart)
    await expect.poll(rows, SHOWN).toEqual(last)
    expect(await page.isDisabled('#authors-next')).toBe(true)
    await page.screenshot({ path: path.join(OUTPUT, `authors-last-${TEST_DATABASE}.png`) })
    await page.click('#authors-previous')
    await expect.poll(rows, SHOWN).toEqual(authors.slice(lastStart - 10, lastStart))
  }, 120_000)
})
