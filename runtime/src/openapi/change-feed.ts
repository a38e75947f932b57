/**
 * @module
 * The OpenAPI schema of a change feed's page (docs/syncing.md) and its `since` parameter: members
 * as the collection writes them, or tombstones; the view's `next` to resume from, and `upToDate`;
 * its 410, which names its own collection.
 */
import { goneDetail } from '../hydra/change-feed.js'
import type { DocumentedType } from '../hydra/documented-types.js'
import type { Parameter } from './parameters.js'
import { type Schema, schemaNames, schemaRef } from './schemas.js'

/** The token to resume from. */
export const SINCE_PARAMETER: Parameter = {
  name: 'since',
  in: 'query',
  required: false,
  description:
    'The token to resume from, as the view of the last page read names it; left out, the token of now.',
  schema: { type: 'string' },
}

/**
 * The 410 of the feed at `path` under `base` (docs/syncing.md#retention): its example names the
 * feed's own collection, which the client reads again.
 */
export function goneProblem(path: string, base: string): { description: string; detail: string } {
  return {
    description:
      'The change log no longer holds the changes after the token: read the collection again.',
    detail: goneDetail(path, base),
  }
}

const TOMBSTONE: Schema = {
  type: 'object',
  description: "A member that left the caller's view: deleted, or out of its scope.",
  required: ['@id', '@type'],
  properties: { '@id': { type: 'string' }, '@type': { const: 'Deleted' } },
  additionalProperties: false,
}

/** A page of the feed of `type`, with the `hydra:` prefix of its main collection. */
export function changesPageSchema(type: DocumentedType): Schema {
  const prefix = type.collections[0]?.hydraPrefix !== false
  const term = (name: string) => (prefix ? `hydra:${name}` : name)
  return {
    type: 'object',
    required: ['@id', '@type', term('member'), term('view'), 'upToDate'],
    properties: {
      '@context': { type: 'string' },
      '@id': { type: 'string' },
      '@type': { type: 'string' },
      [term('member')]: {
        type: 'array',
        items: { oneOf: [schemaRef(schemaNames(type).member), TOMBSTONE] },
      },
      [term('view')]: {
        type: 'object',
        required: ['@id', '@type', term('next')],
        properties: {
          '@id': { type: 'string' },
          '@type': { type: 'string' },
          [term('next')]: {
            type: 'string',
            description: 'Where to resume: the feed since this page.',
          },
        },
      },
      upToDate: {
        type: 'boolean',
        description: 'Whether the page reached the end of what can be read now.',
      },
    },
  }
}
