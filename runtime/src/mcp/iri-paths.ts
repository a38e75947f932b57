/**
 * @module
 * Which route of the API an IRI names: a collection of the catalog or an item template, matched
 * on its path under the mount path, a template's `{id}` any one segment. An absolute IRI is the
 * API's only on its own origin.
 */
import type { CatalogCollection } from './collection-catalog.js'
import { ToolArgumentError } from './tool-argument-error.js'

/** Whether `template` (under `base`) matches the path `path`. */
export function matchesTemplate(template: string, base: string, path: string): boolean {
  const pattern = `${base}${template}`
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/?#]+')
  return new RegExp(`^${pattern}$`).test(path)
}

/** Whether a URL reads `path` as the path it is, with no dot segment. */
export function samePath(path: string): boolean {
  return new URL(path, 'http://localhost').pathname === path
}

/** The collection of `catalog` whose path `path` is, if any. */
export function collectionAt(
  catalog: readonly CatalogCollection[],
  base: string,
  path: string
): CatalogCollection | undefined {
  if (!samePath(path)) return undefined
  return catalog.find((collection) => matchesTemplate(collection.path, base, path))
}

/** An IRI as the path and query the API reads, refusing one of another origin. */
export function localIri(iri: unknown, origin: string, argument: string): string {
  if (typeof iri !== 'string' || iri === '')
    throw new ToolArgumentError(`The argument ${argument} takes an IRI of this API.`)
  if (iri.startsWith('/') && !iri.startsWith('//')) return iri
  let url: URL
  try {
    url = new URL(iri)
  } catch {
    throw new ToolArgumentError(`The argument ${argument} takes an IRI of this API.`)
  }
  if (url.origin !== origin)
    throw new ToolArgumentError(`${iri} is not an IRI of this API, which is served at ${origin}.`)
  return `${url.pathname}${url.search}${url.hash}`
}
