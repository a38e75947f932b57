/**
 * `hydra:search` on collection responses: the IRI template of the parameters a collection
 * accepts, as API Platform writes it (clients such as api-doc-parser read a resource's parameters
 * from a collection response, not from the documentation). Mapping entries carry `variable`,
 * `property` and `required` unprefixed in both styles; the context defines them (and the
 * template's other keys) only inside the search block, so they never take a field's name.
 */
import type { PagingConfig } from '../paging/types.js'
import { type DocumentedType, pagingVariables } from './documentation.js'
import { hydraTerm } from './terms.js'

/** The search block of a collection served at `path` (its mount path included). */
export function collectionSearch(
  type: Pick<DocumentedType, 'name' | 'fields'>,
  paging: PagingConfig,
  path: string,
  prefix: boolean
): Record<string, unknown> {
  const variables = pagingVariables(type, paging)
  const names = variables.map((variable) => variable.variable)
  return {
    '@type': hydraTerm('IriTemplate', prefix),
    [hydraTerm('template', prefix)]: `${path}${names.length > 0 ? `{?${names.join(',')}}` : ''}`,
    [hydraTerm('variableRepresentation', prefix)]: hydraTerm('BasicRepresentation', prefix),
    [hydraTerm('mapping', prefix)]: variables.map((variable) => ({
      '@type': 'IriTemplateMapping',
      variable: variable.variable,
      property: variable.term,
      required: false,
    })),
  }
}
