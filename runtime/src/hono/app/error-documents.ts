/**
 * @module
 * `/errors/{status}`: what an error's `@id` and `type` (`/errors/404`) lead to, a document
 * describing that kind of error, so that every IRI the API writes resolves.
 */
import type { Context } from 'hono'
import { errorKind } from '../../error-kinds.js'
import { type ErrorOptions, HydraError } from '../../errors.js'
import { hydraTerm } from '../../terms.js'
import { mountPrefix } from '../request/location.js'
import { validatedJsonLd } from '../response/validated.js'

/** Serves the document of one kind of error, any status from 400 to 599; others are a 404. */
export function serveErrorDocument(c: Context, options: Pick<ErrorOptions, 'hydraPrefix'> = {}) {
  const raw = c.req.param('status') ?? ''
  const kind = /^[45][0-9]{2}$/.test(raw) ? errorKind(Number(raw)) : undefined
  const base = mountPrefix(c)
  const hydraPrefix = options.hydraPrefix !== false
  if (!kind) throw new HydraError(404, `No error document for "${raw}".`, { base, hydraPrefix })
  const description = hydraPrefix
    ? { 'hydra:title': kind.title, 'hydra:description': kind.description }
    : { title: kind.title, description: kind.description }
  return validatedJsonLd(c, {
    '@context': `${base}/contexts/Error`,
    '@id': `${base}/errors/${raw}`,
    '@type': hydraTerm('Error', hydraPrefix),
    title: kind.title,
    status: Number(raw),
    ...description,
  })
}
