/**
 * JSON-LD context documents: what every key of a response means. A type's context maps its fields
 * to terms of the API's vocabulary (`<docs>#Book/title`) or to the IRIs they declare, and defines
 * Hydra's terms both ways: `hydra:member` through the `hydra` prefix, `member` as a term (API
 * Platform 4 style, `hydraPrefix: false`). Links (`first`, `next`, ...) are IRIs (`@type: @id`).
 */

export const HYDRA = 'http://www.w3.org/ns/hydra/core#'

/** Hydra's terms that collections use, by their unprefixed names. */
const HYDRA_VALUES = [
  'member',
  'totalItems',
  'view',
  'Collection',
  'PartialCollectionView',
] as const
const HYDRA_LINKS = ['first', 'last', 'previous', 'next'] as const

/**
 * The terms of `hydra:search` (IriTemplate and its mappings). API Platform writes a mapping's keys
 * unprefixed whatever the prefix setting, so they are defined here too, unless a field of the type
 * has the name (they are not reserved: a field may be called `property`).
 */
const HYDRA_SEARCH: Record<string, ContextTerm> = {
  search: 'hydra:search',
  IriTemplate: 'hydra:IriTemplate',
  IriTemplateMapping: 'hydra:IriTemplateMapping',
  template: 'hydra:template',
  mapping: 'hydra:mapping',
  variable: 'hydra:variable',
  required: 'hydra:required',
  property: { '@id': 'hydra:property', '@type': '@vocab' },
  variableRepresentation: { '@id': 'hydra:variableRepresentation', '@type': '@vocab' },
  BasicRepresentation: 'hydra:BasicRepresentation',
}

/** Names a type's fields cannot take when it is served without the `hydra:` prefix. */
export const HYDRA_TERMS: readonly string[] = [...HYDRA_VALUES, ...HYDRA_LINKS]

export type ContextTerm = string | { '@id'?: string; '@type': string }

/** The Hydra part of a context, leaving out the terms in `taken` (a type's own field names). */
export function hydraTerms(taken: ReadonlySet<string> = new Set()): Record<string, ContextTerm> {
  const terms: Record<string, ContextTerm> = { hydra: HYDRA }
  for (const name of HYDRA_VALUES) if (!taken.has(name)) terms[name] = `hydra:${name}`
  for (const name of HYDRA_LINKS) {
    if (!taken.has(name)) terms[name] = { '@id': `hydra:${name}`, '@type': '@id' }
    terms[`hydra:${name}`] = { '@type': '@id' }
  }
  return terms
}

/** The terms of `hydra:search`, leaving out those in `taken`. */
export function searchTerms(taken: ReadonlySet<string> = new Set()): Record<string, ContextTerm> {
  const terms: Record<string, ContextTerm> = {}
  for (const [name, term] of Object.entries(HYDRA_SEARCH)) if (!taken.has(name)) terms[name] = term
  terms['hydra:variableRepresentation'] = { '@type': '@vocab' }
  terms['hydra:property'] = { '@type': '@vocab' }
  return terms
}

export interface ContextType {
  name: string
  iri?: string | undefined
  fields: readonly { name: string; iri?: string | undefined }[]
  /** Its collections carry `hydra:search`: the context defines the template's terms. */
  search?: boolean | undefined
}

/**
 * The context of a type's collections and items. `vocabulary` is the API documentation's IRI with
 * a trailing `#`, so `Book` and `Book/title` are defined there unless they declare their own IRI.
 */
export function contextDocument(
  vocabulary: string,
  type: ContextType
): { '@context': Record<string, ContextTerm> } {
  const fields = new Set(type.fields.map((field) => field.name))
  if (fields.has('hydra')) {
    throw new TypeError(
      `The context of ${type.name} cannot define a field "hydra": that term is the prefix of Hydra's vocabulary.`
    )
  }
  const context: Record<string, ContextTerm> = {
    '@vocab': vocabulary,
    ...hydraTerms(fields),
    ...(type.search ? searchTerms(fields) : {}),
  }
  if (type.iri) context[type.name] = type.iri
  for (const field of type.fields) context[field.name] = field.iri ?? `${type.name}/${field.name}`
  return { '@context': context }
}
