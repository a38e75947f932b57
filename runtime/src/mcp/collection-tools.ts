/**
 * @module
 * The tools an API offers whatever its size, in the order `tools/list` gives them: one lists the
 * collections, one reads a page of any of them, one fetches any item or page by its IRI, and
 * `search` and `fetch` answer as ChatGPT's connectors call them. Each is read-only and its
 * arguments are all it takes (`additionalProperties: false`: another is refused by name).
 */
import type { Schema } from '../openapi/schemas.js'
import { FETCH, fetchItem, SEARCH, search } from './connector-tools.js'
import { FETCH_IRI, fetchIri } from './fetch-iri.js'
import { LIST_COLLECTIONS, listCollections } from './list-collections.js'
import { READ_COLLECTION, readCollection } from './read-collection.js'
import type { ToolContext } from './tool-context.js'
import type { ToolResult } from './tool-result.js'

/** A tool of the constant set: what `tools/list` shows, and how a call is answered. */
export interface CollectionTool {
  name: string
  title: string
  description: string
  inputSchema: { type: 'object'; properties: Record<string, Schema>; required?: string[] }
  outputSchema: Schema
  answer(context: ToolContext, args: Record<string, unknown>): ToolResult | Promise<ToolResult>
}

const input = (properties: Record<string, Schema>, required: string[] = []) => ({
  type: 'object' as const,
  properties,
  ...(required.length > 0 ? { required } : {}),
  additionalProperties: false,
})

const string = (description: string): Schema => ({ type: 'string', description })

/** A member or item as the API writes it: its IRI, its type and its properties. */
const RESOURCE: Schema = {
  type: 'object',
  properties: { '@id': { type: 'string' }, '@type': { type: 'string' } },
  required: ['@id'],
}

const PAGE: Schema = {
  type: 'object',
  properties: {
    members: { type: 'array', items: RESOURCE },
    totalItems: { type: 'integer', minimum: 0 },
    nextCursor: string('Where the next result starts: absent on the last.'),
  },
  required: ['members'],
}

const CURSOR = string(
  'The nextCursor of a previous result: the rest of the same read. Left out: the first page.'
)

/**
 * A filter's value: text, a number, a boolean or a list of them, each alternative of one type, as
 * clients that map tools to a dialect of single types (Gemini's function declarations) read them.
 */
const ONE_VALUE: Schema[] = [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }]
const VALUE: Schema = { anyOf: [...ONE_VALUE, { type: 'array', items: { anyOf: ONE_VALUE } }] }

/** The tools, in the order `tools/list` gives them. */
export const COLLECTION_TOOLS: readonly CollectionTool[] = [
  {
    name: LIST_COLLECTIONS,
    title: 'List the collections',
    description:
      "Lists the API's collections compactly: each one's name and path (with {id} where a " +
      "parent's key goes), its members' type, its paging (pages, which count their members, " +
      'partial, cursor or unpaged), the names of the filters, positions (a cursor-paged read ' +
      'may start from) and orders its caller may use with read_collection, the fields search ' +
      'reads it by (search), and why the caller may not read it (refused). Given collection (a ' +
      'name or path), that one in full: each filter with its description and JSON Schema, the ' +
      'properties its members may be reduced to, its item IRI template.',
    inputSchema: input({
      cursor: CURSOR,
      collection: string('The name or path of one collection to describe in full.'),
    }),
    outputSchema: {
      type: 'object',
      properties: {
        collections: { type: 'array', items: { type: 'object' } },
        collection: { type: 'object' },
        nextCursor: string('Where the next result starts: absent on the last.'),
      },
    },
    answer: listCollections,
  },
  {
    name: READ_COLLECTION,
    title: 'Read a collection',
    description:
      'Reads a page of a collection, by its name or path as list_collections gives them (a ' +
      "parent's key in the path: /authors/3/books), filtered, ordered and reduced to some " +
      'properties. Answers its members (each with its @id), totalItems when the collection ' +
      'counts them, and a nextCursor while members follow: pass it back as cursor, alone, ' +
      'for the rest.',
    inputSchema: input({
      collection: string('The name or path of a collection, as list_collections gives it.'),
      filters: {
        type: 'object',
        description:
          'Filter values by parameter name, as list_collections lists them (title, price[gte], ' +
          'genre[] with a list).',
        additionalProperties: VALUE,
      },
      order: {
        type: 'object',
        description: 'The direction by property the collection may be ordered by.',
        additionalProperties: { type: 'string', enum: ['asc', 'desc'] },
      },
      properties: {
        type: 'array',
        description:
          "The properties each member shows (a relation's as relation.property), among those " +
          'list_collections lists.',
        items: { type: 'string' },
      },
      cursor: CURSOR,
    }),
    outputSchema: PAGE,
    answer: readCollection,
  },
  {
    name: FETCH_IRI,
    title: 'Fetch by IRI',
    description:
      'Reads an item or a page by its IRI, as an answer links it (/books/1, /authors/3/books), ' +
      "or its URL on the API's origin. A page answers as read_collection does.",
    inputSchema: input({ iri: string('The IRI of an item or a page.') }, ['iri']),
    outputSchema: { type: 'object' },
    answer: fetchIri,
  },
  {
    name: SEARCH,
    title: 'Search',
    description:
      "Searches the text properties of the API's collections (those with a text filter) for " +
      "the query, and answers up to 20 items: each one's id (its IRI), title and URL.",
    inputSchema: input({ query: string('The text to search for.') }, ['query']),
    outputSchema: {
      type: 'object',
      properties: {
        results: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              id: { type: 'string' },
              title: { type: 'string' },
              url: { type: 'string' },
            },
            required: ['id', 'title', 'url'],
          },
        },
      },
      required: ['results'],
    },
    answer: search,
  },
  {
    name: FETCH,
    title: 'Fetch',
    description:
      'Reads the item a search result names, by its id: its title, its JSON as text, its URL ' +
      'and its type.',
    inputSchema: input({ id: string('The id of a search result: an item IRI.') }, ['id']),
    outputSchema: {
      type: 'object',
      properties: {
        id: { type: 'string' },
        title: { type: 'string' },
        text: { type: 'string' },
        url: { type: 'string' },
        metadata: { type: 'object' },
      },
      required: ['id', 'title', 'text', 'url'],
    },
    answer: fetchItem,
  },
]
