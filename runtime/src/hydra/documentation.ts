/**
 * The Hydra entrypoint (`/`) and API documentation (`/docs.jsonld`) of an API, rendered from a
 * description of its types and collections. Pure: IRIs are built from the given origin and mount
 * path. The documents follow the shape Hydra clients such as API Platform's api-doc-parser read:
 * a supported class per type (its properties and item operation) and an `Entrypoint` class whose
 * properties are the collections, each typed as a collection of its members and carrying its GET
 * operation with the paging parameters it accepts (an IRI template).
 */

import type { QuerySpec } from '../filters/spec.js'
import { queryVariables } from '../filters/variables.js'
import type { TotalAccuracy } from '../paging/totals.js'
import type { CursorKey, PagingConfig } from '../paging/types.js'
import { scalarType } from '../scalar-types.js'
import { TOTAL_ITEMS_ACCURACY } from './collection.js'
import { type ContextTerm, HYDRA } from './context.js'
import type { LinkSpec } from './links.js'

/** A field as the documentation describes it. */
export interface DocumentedField {
  name: string
  /** Prisma type (`String`, `Int`, `DateTime`...) or an enum's name: decides the documented range. */
  type: string
  list?: boolean | undefined
  /** Default true. */
  required?: boolean | undefined
  iri?: string | undefined
  description?: string | undefined
  /** An enum's values: the range is then a datatype of exactly these strings (`owl:oneOf`). */
  values?: readonly string[] | undefined
}

/** A relation shown as a link, as the documentation describes it. */
export type DocumentedLink = Pick<
  LinkSpec,
  'name' | 'kind' | 'required' | 'iri' | 'description'
> & {
  target: Pick<LinkSpec['target'], 'name' | 'iri'>
}

/** A collection of a type, as the entrypoint lists it. */
export interface DocumentedCollection {
  /** The entrypoint's key for it (`book`, `bookRecent`). */
  name: string
  path: string
  paging: PagingConfig
  /** What clients may filter and order it by (docs/filters.md); absent: nothing. */
  query?: QuerySpec | undefined
  description?: string | undefined
  /** How its full paging counts; when not `exact`, the documentation declares `totalItemsAccuracy`. */
  totals?: TotalAccuracy | undefined
  /** Whether its pages' Hydra keys carry the `hydra:` prefix (the OpenAPI schema follows). Default true. */
  hydraPrefix?: boolean | undefined
}

/** A type of the API: its members' fields and the collections that list them. */
export interface DocumentedType {
  name: string
  iri?: string | undefined
  description?: string | undefined
  fields: readonly DocumentedField[]
  /** Relations shown as links (docs/hydra.md#relations), documented after the fields. */
  links?: readonly DocumentedLink[] | undefined
  /** Items are served at `<itemPath>/{id}`; left out for types without item routes. */
  itemPath?: string | undefined
  /** The kind of the items' key (`Int`, `BigInt`, `String`): the OpenAPI schema of `{id}`. */
  idKind?: string | undefined
  collections: readonly DocumentedCollection[]
}

/** The API as the entrypoint and the documentation describe it: its title and types. */
export interface ApiDescription {
  title: string
  /** The API's version, as the OpenAPI document states it (default `0.0.0`). */
  version?: string | undefined
  description?: string | undefined
  types: readonly DocumentedType[]
}

const XSD = 'http://www.w3.org/2001/XMLSchema#'

/** Where the documents live, from the request: `origin` + `base` (the mount path, '' at the root). */
export interface ApiLocation {
  origin: string
  base: string
}

export const docsPath = (base: string) => `${base}/docs.jsonld`
/** The entrypoint's path: `/` at the root, the mount path itself (`/api`) under one. */
export const entrypointPath = (base: string) => base || '/'
export const docsUrl = ({ origin, base }: ApiLocation) => `${origin}${docsPath(base)}`

/** `#Book`, or the IRI the type declares. */
const classId = (type: Pick<DocumentedType, 'name' | 'iri'>) => type.iri ?? `#${type.name}`
const propertyId = (
  type: Pick<DocumentedType, 'name'>,
  field: Pick<DocumentedField, 'name' | 'iri'>
) => field.iri ?? `#${type.name}/${field.name}`

/** The entrypoint key of an operation: `book` for a resource's collection, `bookRecent` for others. */
export function entrypointKey(resourceName: string, operation: string): string {
  const base = resourceName.charAt(0).toLowerCase() + resourceName.slice(1)
  return operation === 'collection'
    ? base
    : `${base}${operation.charAt(0).toUpperCase()}${operation.slice(1)}`
}

/** The entrypoint: one link per type (its main collection), under the keys its context defines. */
export function renderEntrypoint(api: ApiDescription, base: string): Record<string, string> {
  const body: Record<string, string> = {
    '@context': `${base}/contexts/Entrypoint`,
    '@id': entrypointPath(base),
    '@type': 'Entrypoint',
  }
  for (const collection of collectionsOf(api)) body[collection.name] = `${base}${collection.path}`
  return body
}

/**
 * A type's main collection, which the entrypoint links: the one under the type's own key (`book`),
 * else its first. Its other collections (`/books/recent`) are operations of the same entry.
 */
export function mainCollection(type: DocumentedType): DocumentedCollection | undefined {
  const key = entrypointKey(type.name, 'collection')
  return type.collections.find((collection) => collection.name === key) ?? type.collections[0]
}

/** The entrypoint's context: its collection keys are links defined in the documentation. */
export function entrypointContext(
  api: ApiDescription,
  location: ApiLocation
): { '@context': Record<string, ContextTerm> } {
  const context: Record<string, ContextTerm> = {
    '@vocab': `${docsUrl(location)}#`,
    hydra: HYDRA,
  }
  for (const collection of collectionsOf(api))
    context[collection.name] = { '@id': `Entrypoint/${collection.name}`, '@type': '@id' }
  return { '@context': context }
}

/** The collections the entrypoint links: one per type (generic clients take each for a resource). */
function collectionsOf(api: ApiDescription): DocumentedCollection[] {
  return api.types.flatMap((type) => mainCollection(type) ?? [])
}

/** The Hydra `ApiDocumentation`: a supported class per type, and the entrypoint's class. */
export function renderDocumentation(
  api: ApiDescription,
  location: ApiLocation
): Record<string, unknown> {
  const { base } = location
  return {
    '@context': {
      '@vocab': `${docsUrl(location)}#`,
      hydra: HYDRA,
      rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
      rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
      xsd: XSD,
      owl: 'http://www.w3.org/2002/07/owl#',
      schema: 'https://schema.org/',
      domain: { '@id': 'rdfs:domain', '@type': '@id' },
      range: { '@id': 'rdfs:range', '@type': '@id' },
      returns: { '@id': 'hydra:returns', '@type': '@id' },
    },
    '@id': docsPath(base),
    '@type': 'hydra:ApiDocumentation',
    'hydra:title': api.title,
    ...(api.description ? { 'hydra:description': api.description } : {}),
    'hydra:entrypoint': { '@id': entrypointPath(base) },
    'hydra:supportedClass': [
      ...api.types.map((type) => documentType(type)),
      documentEntrypoint(api, base),
      ...(api.types
        .flatMap((type) => type.collections)
        .some((collection) => (collection.totals ?? 'exact') !== 'exact')
        ? [documentTotalItemsAccuracy()]
        : []),
    ],
  }
}

/**
 * The API's own term for a `hydra:totalItems` that is not exact, declared as a property of Hydra's
 * collections (docs/paging.md, "Totals that are not exact").
 */
function documentTotalItemsAccuracy(): Record<string, unknown> {
  return {
    '@id': 'hydra:Collection',
    '@type': 'hydra:Class',
    'hydra:supportedProperty': [
      {
        '@type': 'hydra:SupportedProperty',
        'hydra:property': {
          '@id': `#${TOTAL_ITEMS_ACCURACY}`,
          '@type': 'rdf:Property',
          'rdfs:label': TOTAL_ITEMS_ACCURACY,
          domain: 'hydra:Collection',
          range: 'xsd:string',
        },
        'hydra:title': TOTAL_ITEMS_ACCURACY,
        'hydra:description':
          'Present when hydra:totalItems is not an exact count: "estimated" (the database\'s own statistics) or "cached" (an exact count made up to some seconds earlier). The last page link is then computed from that figure: the real last page may come before or after it.',
        'hydra:required': false,
        'hydra:readable': true,
        'hydra:writeable': false,
      },
    ],
  }
}

/**
 * The range of a field: its XSD datatype; for an enum, `xsd:string` and a datatype of the API's
 * vocabulary (`#Genre`) of exactly its values (`owl:oneOf`), declared alike wherever the enum is
 * used. `xsd:string` comes first: generic clients read the first range (API Platform's admin
 * fails on a list whose first range is not a datatype it knows).
 */
function rangeOf(field: DocumentedField): string | unknown[] {
  if (field.list) return 'rdf:List'
  if (field.values)
    return [
      'xsd:string',
      {
        '@id': `#${field.type}`,
        '@type': 'rdfs:Datatype',
        'rdfs:label': field.type,
        'owl:onDatatype': { '@id': 'xsd:string' },
        'owl:oneOf': { '@list': field.values.map((value) => ({ '@value': value })) },
      },
    ]
  return scalarType(field.type)?.range ?? 'xsd:string'
}

/**
 * A field's property. A property of the API's vocabulary (`#Book/title`) belongs to its class: its
 * label is the field's name, its domain the class. A property with its own IRI (`schema:name`) may
 * be shared by several classes and is not ours to define: it is declared the same way wherever it
 * is used, labelled with its IRI's last segment and without a domain, so the documentation holds
 * one consistent declaration of it; each class names its field in the supported property's
 * `hydra:title` (api-doc-parser 0.16 reads that; 0.12, in client-generator 0.7, reads the label).
 */
function documentProperty(type: DocumentedType, field: DocumentedField): Record<string, unknown> {
  return declareProperty(type, field, 'rdf:Property', { range: rangeOf(field) })
}

/** The declaration of a property of the type (see documentProperty), of the given RDF type. */
function declareProperty(
  type: DocumentedType,
  field: Pick<DocumentedField, 'name' | 'iri'>,
  rdfType: string,
  rest: Record<string, unknown>
): Record<string, unknown> {
  const id = propertyId(type, field)
  if (field.iri) {
    const label = field.iri.replace(/[/#]+$/, '').replace(/^.*[/#:]/, '') || field.name
    return { '@id': id, '@type': rdfType, 'rdfs:label': label, ...rest }
  }
  return { '@id': id, '@type': rdfType, 'rdfs:label': field.name, domain: classId(type), ...rest }
}

/**
 * A relation's property: a `hydra:Link`, so generic clients follow its value. To-one: its range
 * is the related class and `owl:maxCardinality` 1 (api-doc-parser then reports a reference to the
 * related resource, and API Platform's admin shows a link that opens it). To-many: the value is
 * one IRI, of a collection of the related class, declared as the entrypoint declares collections
 * (`hydra:Collection`, every `hydra:member` of the class): the admin shows that IRI as text; a
 * range of the related class would make it expect an array of the related items' IRIs.
 */
function documentLink(type: DocumentedType, link: DocumentedLink): Record<string, unknown> {
  const target = { '@id': classId(link.target) }
  if (link.kind === 'one')
    return declareProperty(type, link, 'hydra:Link', {
      'rdfs:range': target,
      'owl:maxCardinality': 1,
    })
  return declareProperty(type, link, 'hydra:Link', {
    'rdfs:range': [
      { '@id': 'hydra:Collection' },
      {
        'owl:equivalentClass': {
          'owl:onProperty': { '@id': 'hydra:member' },
          'owl:allValuesFrom': target,
        },
      },
    ],
  })
}

function documentType(type: DocumentedType): Record<string, unknown> {
  const id = classId(type)
  return {
    '@id': id,
    '@type': 'hydra:Class',
    'rdfs:label': type.name,
    'hydra:title': type.name,
    ...(type.description ? { 'hydra:description': type.description } : {}),
    'hydra:supportedProperty': [
      ...type.fields.map((field) => supportedProperty(field, documentProperty(type, field))),
      ...(type.links ?? []).map((link) =>
        supportedProperty(
          { ...link, required: link.kind === 'many' || link.required !== false },
          documentLink(type, link)
        )
      ),
    ],
    'hydra:supportedOperation': type.itemPath
      ? [
          {
            '@type': ['hydra:Operation', 'schema:FindAction'],
            'hydra:method': 'GET',
            'hydra:title': `get${type.name}`,
            'rdfs:label': `Retrieves one ${type.name} resource.`,
            returns: id,
          },
        ]
      : [],
  }
}

function supportedProperty(
  field: Pick<DocumentedField, 'name' | 'description' | 'required'>,
  property: Record<string, unknown>
): Record<string, unknown> {
  return {
    '@type': 'hydra:SupportedProperty',
    'hydra:property': property,
    'hydra:title': field.name,
    ...(field.description ? { 'hydra:description': field.description } : {}),
    'hydra:required': field.required !== false,
    'hydra:readable': true,
    'hydra:writeable': false,
  }
}

function documentEntrypoint(api: ApiDescription, base: string): Record<string, unknown> {
  return {
    '@id': '#Entrypoint',
    '@type': 'hydra:Class',
    'hydra:title': 'Entrypoint',
    'hydra:description': 'The API entrypoint: a link to every collection.',
    'hydra:supportedProperty': api.types.flatMap((type) => {
      const collection = mainCollection(type)
      if (!collection) return []
      const label = collection.description ?? `The collection of ${type.name} resources`
      // The main collection first, then the type's other collections, each with its own path (the
      // template of its search): operations of one resource, not resources of their own.
      const others = type.collections.filter((other) => other !== collection)
      return [
        {
          '@type': 'hydra:SupportedProperty',
          'hydra:property': {
            '@id': `#Entrypoint/${collection.name}`,
            '@type': 'hydra:Link',
            domain: '#Entrypoint',
            'rdfs:label': label,
            'rdfs:range': [
              { '@id': 'hydra:Collection' },
              {
                'owl:equivalentClass': {
                  'owl:onProperty': { '@id': 'hydra:member' },
                  'owl:allValuesFrom': { '@id': classId(type) },
                },
              },
            ],
            'hydra:supportedOperation': [
              {
                '@type': ['hydra:Operation', 'schema:FindAction'],
                'hydra:method': 'GET',
                'hydra:title': `get${type.name}Collection`,
                'rdfs:label': `Retrieves the collection of ${type.name} resources.`,
                returns: 'hydra:Collection',
                'hydra:search': searchTemplate(type, collection, base),
              },
              ...others.map((other) => ({
                '@type': ['hydra:Operation', 'schema:FindAction'],
                'hydra:method': 'GET',
                'hydra:title': `get${capitalized(other.name)}Collection`,
                'rdfs:label':
                  other.description ??
                  `Retrieves the ${type.name} resources at ${base}${other.path}.`,
                returns: 'hydra:Collection',
                'hydra:search': searchTemplate(type, other, base),
              })),
            ],
          },
          'hydra:title': collection.name,
          'hydra:description': label,
          'hydra:readable': true,
          'hydra:writeable': false,
        },
      ]
    }),
  }
}

const capitalized = (name: string) => name.charAt(0).toUpperCase() + name.slice(1)

/** A query parameter of a collection, as its IRI templates describe it. */
export interface Variable {
  variable: string
  /** The property it sets, as the documentation writes it (`hydra:pageIndex`, `#Book/title`). */
  property: string
  /**
   * The same property as a collection response writes it, resolved by the response's context:
   * a field's name (what API Platform writes, and what api-doc-parser matches to a field) or a
   * compact IRI.
   */
  term: string
  description: string
}

/** The query parameters a client may send to the collection, as a Hydra IRI template. */
function searchTemplate(
  type: DocumentedType,
  collection: DocumentedCollection,
  base: string
): Record<string, unknown> {
  const variables = [...pagingVariables(type, collection.paging)]
  // Then its filters and orders, as its responses' `hydra:search` lists them; a variable paging
  // already describes (a cursor position on a field a range filter also reads) is one parameter.
  const seen = new Set(variables.map((variable) => variable.variable))
  for (const variable of collection.query ? queryVariables(collection.query) : []) {
    if (seen.has(variable.variable)) continue
    seen.add(variable.variable)
    const field = type.fields.find((candidate) => candidate.name === variable.field)
    variables.push({
      variable: variable.variable,
      property: field ? propertyId(type, field) : `#${type.name}/${variable.field}`,
      term: variable.field,
      description: variable.description,
    })
  }
  const names = variables.map((variable) => variable.variable)
  return {
    '@type': 'hydra:IriTemplate',
    'hydra:template': `${base}${collection.path}${names.length > 0 ? `{?${names.join(',')}}` : ''}`,
    'hydra:variableRepresentation': { '@id': 'hydra:BasicRepresentation' },
    'hydra:mapping': variables.map((variable) => ({
      '@type': 'hydra:IriTemplateMapping',
      'hydra:variable': variable.variable,
      'hydra:property': { '@id': variable.property },
      'hydra:required': false,
      'hydra:description': variable.description,
    })),
  }
}

/** The paging parameters a collection accepts under its settings, in template order. */
export function pagingVariables(
  type: Pick<DocumentedType, 'name' | 'fields'>,
  paging: PagingConfig
): Variable[] {
  const { parameters } = paging
  const variables: Variable[] = []
  const size = `${paging.itemsPerPage} items per page`
  if (paging.enabled && paging.cursor) {
    variables.push(...cursorVariables(type, paging.cursor))
    // D7: page-based clients read numbered pages of the same order, at the cost of offset paging.
    variables.push({
      variable: parameters.page,
      property: 'hydra:pageIndex',
      term: 'hydra:pageIndex',
      description: `A numbered page of the same order, from 1 (${size}), with a count and first/last links: read by offset, so it costs more the deeper it is; without it, pages are read by cursor.`,
    })
  } else if (paging.enabled || paging.clientEnabled) {
    variables.push({
      variable: parameters.page,
      property: 'hydra:pageIndex',
      term: 'hydra:pageIndex',
      description: `The page to read, from 1 (default 1, ${size}).`,
    })
  }
  if (paging.clientItemsPerPage) {
    const maximum =
      paging.maximumItemsPerPage === null ? '' : `, at most ${paging.maximumItemsPerPage}`
    variables.push({
      variable: parameters.itemsPerPage,
      property: 'hydra:limit',
      term: 'hydra:limit',
      description: `Items per page (default ${paging.itemsPerPage}${maximum}).`,
    })
  }
  if (paging.clientEnabled) {
    variables.push({
      variable: parameters.enabled,
      property: '#pagination',
      term: 'pagination',
      description: `false: the whole collection in one response; true: paged (default ${paging.enabled}).`,
    })
  }
  if (paging.clientPartial && !paging.cursor) {
    variables.push({
      variable: parameters.partial,
      property: '#partial',
      term: 'partial',
      description: `true: no item count and no last page, a next link only when more items follow (default ${paging.partial}).`,
    })
  }
  return variables
}

/** Cursor positions: each key field with the operators that move forward and back. */
function cursorVariables(
  type: Pick<DocumentedType, 'name' | 'fields'>,
  cursor: readonly CursorKey[]
): Variable[] {
  return cursor.flatMap((key) => {
    const field = type.fields.find((candidate) => candidate.name === key.field)
    const property = field ? propertyId(type, field) : `#${type.name}/${key.field}`
    const [forward, back] = key.direction === 'desc' ? ['lt', 'gt'] : ['gt', 'lt']
    return [forward, back, `${forward}e`, `${back}e`].map((operator) => ({
      variable: `${key.field}[${operator}]`,
      term: key.field,
      property,
      description: `Cursor position on ${key.field} (${key.direction === 'desc' ? 'descending' : 'ascending'}): ${operator} reads the items ${operator.startsWith(forward) ? 'after' : 'before'} it in the collection's order.`,
    }))
  })
}
