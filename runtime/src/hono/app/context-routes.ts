/**
 * @module
 * The JSON-LD context documents the API serves under `/contexts/`: each type's, and the one of
 * problem bodies.
 */
import type { Context } from 'hono'
import { type ContextTerm, type ContextType, contextDocument } from '../../hydra/context.js'
import { docsUrl } from '../../hydra/documentation.js'
import { apiLocation } from '../request/location.js'
import type { JsonLdResponse } from '../response/json-ld.js'
import { validatedJsonLd } from '../response/validated.js'

/** A JSON-LD context document. */
export interface ContextDocument {
  /** The terms of the context, by name. */
  '@context': Record<string, ContextTerm>
}

/**
 * Serves `/contexts/<Name>`: maps a type's fields to terms of the API's vocabulary (or the IRIs
 * they declare) and the Hydra terms, so that collections expand to Hydra's IRIs with or without
 * the `hydra:` prefix. Takes a generated resource, or the name and fields of a custom
 * collection's items.
 *
 * @example
 * The context of a custom collection's items:
 * ```ts
 * app.get('/contexts/Genre', (c) =>
 *   serveContext(c, { name: 'Genre', fields: [{ name: 'name' }, { name: 'books' }] })
 * )
 * ```
 */
export function serveContext(c: Context, resource: ContextType): JsonLdResponse<ContextDocument> {
  return validatedJsonLd(c, contextDocument(`${docsUrl(apiLocation(c))}#`, resource))
}

/** `/contexts/Error`: the context of problem bodies. */
export function serveErrorContext(c: Context) {
  return validatedJsonLd(c, {
    '@context': {
      '@vocab': 'http://www.w3.org/ns/hydra/core#',
      hydra: 'http://www.w3.org/ns/hydra/core#',
      title: 'hydra:title',
      description: 'hydra:description',
      detail: 'https://www.rfc-editor.org/rfc/rfc9457#detail',
      status: 'https://www.rfc-editor.org/rfc/rfc9457#status',
      type: { '@id': 'https://www.rfc-editor.org/rfc/rfc9457#type', '@type': '@id' },
    },
  })
}
