/**
 * @module
 * The `Link` header of a collection's answers in the OpenAPI document: the documentation's link,
 * and a page's view links as RFC 8288 links (docs/paging.md#the-same-links-as-link-headers).
 */

/** The `Link` response header of a collection operation. */
export const PAGE_LINK_HEADER: Record<string, unknown> = {
  Link: {
    description:
      'The API documentation (rel="http://www.w3.org/ns/hydra/core#apiDocumentation"), the page\'s own IRI when the request spelled it otherwise (rel="canonical"), and the view\'s links of a page, absolute (RFC 8288): rel="first", "last", "prev" and "next", as hydra:view has first, last, previous and next.',
    schema: { type: 'string' },
  },
}
