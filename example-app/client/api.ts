/**
 * The example API as the page reads it: Hono's RPC client typed by the example app, and the
 * walkers of the two collections the page shows. The API's address comes from `?api=` (default
 * http://localhost:3000, where `npm start` serves it).
 */
import { hcWalker } from '@prisma-hydra/runtime/client'
import { hc } from 'hono/client'
import type { ExampleApp } from '../src/app.js'

const origin = new URLSearchParams(window.location.search).get('api') ?? 'http://localhost:3000'
const client = hc<ExampleApp>(origin)

/** The activity feed, cursor-paged, newest first: the time, kind and summary of each. */
export const activities = hcWalker(client.activities.$get)({ query: { itemsPerPage: 25 } })

/** The authors, full-paged (ten to a page): a table with a link to each page. */
export const authors = hcWalker(client.authors.$get)()
