/**
 * @module
 * The text filters `search` reads of each collection, as an app names them (`hydraMcp`'s
 * `searchFields`, docs/mcp.md#what-search-reads): a collection without text filters of the kinds
 * `search` reads unless told (one searched by a relation's name, or by an exact code) is searched
 * by those named, and one named with none is not searched. A name that is no top-level collection
 * of the API, or no text filter of it, is refused when the app is made.
 */
import type { CatalogCollection } from './collection-catalog.js'

/** The text filters `search` reads, by top-level collection name (`book: ['title']`). */
export type SearchFields = Readonly<Record<string, readonly string[]>>

const OPTION = "hydraMcp's searchFields"

/** The top-level collections of `catalog`: those `search` reads. */
const topLevel = (catalog: readonly CatalogCollection[]) =>
  catalog.filter((collection) => !collection.path.includes('{'))

/** Refuses `fields` where it names what `catalog` does not hold, naming the option. */
export function checkSearchFields(
  catalog: readonly CatalogCollection[],
  fields: SearchFields
): void {
  const collections = topLevel(catalog)
  for (const [name, named] of Object.entries(fields)) {
    const collection = collections.find((entry) => entry.name === name)
    if (collection === undefined)
      throw new Error(
        `${OPTION} names ${name}, which is no top-level collection of this API: it has ` +
          `${collections.map((entry) => entry.name).join(', ')}.`
      )
    if (!Array.isArray(named) || named.some((field) => typeof field !== 'string'))
      throw new TypeError(`${OPTION} gives ${name} a list of its text filters' names.`)
    const unknown = named.find((field) => !collection.texts.includes(field))
    if (unknown !== undefined)
      throw new Error(
        `${OPTION} names ${unknown} for ${name}, which is no text filter of it: it has ` +
          `${collection.texts.join(', ') || 'none'}.`
      )
  }
}

/** `catalog`, each collection `fields` names searched by the filters it names. */
export function withSearchFields(
  catalog: CatalogCollection[],
  fields: SearchFields | undefined
): CatalogCollection[] {
  if (fields === undefined) return catalog
  return catalog.map((collection) => {
    const named = collection.path.includes('{') ? undefined : fields[collection.name]
    return named === undefined || !Object.hasOwn(fields, collection.name)
      ? collection
      : { ...collection, searchable: [...named] }
  })
}
