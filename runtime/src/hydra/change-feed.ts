/**
 * @module
 * How a collection's change feed (docs/syncing.md) is named and documented: its path, the
 * relation of the collection's `Link` to it (the term `changes` of the API's vocabulary), and its
 * operation in the Hydra documentation, whose template names `since`.
 */
import type { DocumentedType } from './documented-types.js'

/** The path of the feed of the collection at `collectionPath`. */
export const changesPath = (collectionPath: string): string => `${collectionPath}/changes`

/**
 * The detail of the feed's 410 at `feedPath` under `base`: read the collection again (the feed's
 * own collection, `/notes` of `/notes/changes`).
 */
export const goneDetail = (feedPath: string, base: string): string =>
  `since: the change log no longer holds the changes after this token; read ${base}${feedPath.slice(0, -'/changes'.length)} again and take a new token.`

/** The relation of a collection's `Link` to its feed: `<docs>#changes`. */
export const changesRel = (docs: string): string => `${docs}#changes`

/** The feed's operation of `type`, as the entrypoint lists its collections' operations. */
export function changesOperation(
  type: Pick<DocumentedType, 'name' | 'changesPath'>,
  base: string
): Record<string, unknown>[] {
  if (type.changesPath === undefined) return []
  return [
    {
      '@type': ['hydra:Operation', 'schema:FindAction'],
      'hydra:method': 'GET',
      'hydra:title': `get${type.name}Changes`,
      'rdfs:label': `Retrieves the ${type.name} resources changed since a token, and tombstones of those that left the caller's view.`,
      returns: 'hydra:Collection',
      'hydra:search': {
        '@type': 'hydra:IriTemplate',
        'hydra:template': `${base}${type.changesPath}{?since}`,
        'hydra:variableRepresentation': { '@id': 'hydra:BasicRepresentation' },
        'hydra:mapping': [
          {
            '@type': 'hydra:IriTemplateMapping',
            'hydra:variable': 'since',
            'hydra:property': { '@id': '#changes/since' },
            'hydra:required': false,
            'hydra:description':
              'The token to resume from, as the view of the last page read names it; left out, the token of now.',
          },
        ],
      },
    },
  ]
}
