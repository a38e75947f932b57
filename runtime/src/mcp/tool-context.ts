/**
 * @module
 * What a call of one of the collection tools is answered with: the API's road for its requests,
 * the `/mcp` request of its caller, the collections it reads, where the API is served and the
 * budget of a result.
 */
import type { Context } from 'hono'
import type { McpApi } from '../hono/routes/app-options.js'
import type { CatalogCollection } from './collection-catalog.js'

/** A call's surroundings, one per `/mcp` request. */
export interface ToolContext {
  api: McpApi
  /** The `/mcp` request: its caller's credentials go with every request a call makes. */
  c: Context
  /** The collections the app serves, in a stable order. */
  catalog: readonly CatalogCollection[]
  /** The IRI templates of the items the app serves (`/books/{id}`), under no mount path. */
  items: readonly string[]
  /** The mount path (`''`, `/api`). */
  base: string
  /** The API's public origin, which makes an IRI a URL (`https://api.example.com`). */
  origin: string
  /** The most characters a result's text may hold. */
  budget: number
}
