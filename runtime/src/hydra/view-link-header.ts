/**
 * @module
 * A page's view links as an RFC 8288 `Link` header value, for clients that page by headers without
 * reading the body: the IRIs the view writes (the same writer, `viewLinks`), made absolute, each
 * under the relation type RFC 8288's registry gives it (Hydra's `previous` is `prev` there).
 */
import type { CollectionPage, LinkTarget } from '../paging/types.js'

/** The view's links in the order the body writes them, with their registered relation types. */
const RELATIONS = [
  ['first', 'first'],
  ['last', 'last'],
  ['previous', 'prev'],
  ['next', 'next'],
] as const

/**
 * The `Link` values of a page's view links (`<https://host/books?page=3>; rel="next", ...`), each
 * IRI written by `view` under `origin`; '' for a page that is not paginated (a view without links)
 * or has none of them.
 */
export function viewLinkHeader(
  page: CollectionPage<unknown>,
  view: (target: LinkTarget) => string,
  origin: string
): string {
  if (!page.paginated) return ''
  let header = ''
  for (const [key, rel] of RELATIONS) {
    const target = page[key]
    if (target === undefined) continue
    header += `${header === '' ? '' : ', '}<${origin}${view(target)}>; rel="${rel}"`
  }
  return header
}
