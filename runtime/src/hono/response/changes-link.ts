/**
 * @module
 * The `Link` of a collection to its change feed (docs/syncing.md#finding-the-feed):
 * `<https://host/notes/changes>; rel="https://host/docs.jsonld#changes"`, the relation a term of
 * the API's vocabulary.
 */
import type { Context } from 'hono'
import { changesPath, changesRel } from '../../hydra/change-feed.js'
import { docsUrl } from '../../hydra/documentation.js'
import { apiLocation } from '../request/location.js'

/**
 * `response`, a collection's at `collectionPath`, with a `Link` to its change feed; its headers
 * copied first when they are immutable (a cached response's).
 */
export function linkChanges<R extends Response>(
  c: Context,
  response: R,
  collectionPath: string
): R {
  const location = apiLocation(c)
  const link = `<${location.origin}${location.base}${changesPath(collectionPath)}>; rel="${changesRel(docsUrl(location))}"`
  try {
    response.headers.append('Link', link)
    return response
  } catch {
    const copy = new Response(response.body, response)
    copy.headers.append('Link', link)
    return copy as R
  }
}
