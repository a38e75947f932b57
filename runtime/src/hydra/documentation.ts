/**
 * The Hydra entrypoint (`/`) and API documentation (`/docs.jsonld`) of an API, rendered from a
 * description of its types and collections. Pure: IRIs are built from the given origin and mount
 * path. The documents follow the shape Hydra clients such as API Platform's api-doc-parser read:
 * a supported class per type (its properties and item operation) and an `Entrypoint` class whose
 * properties are the collections, each typed as a collection of its members and carrying its GET
 * operation with the paging parameters it accepts (an IRI template).
 */

import { hideableBy } from '../data/inverse-links.js'
import { scalarType } from '../scalar-types.js'
import { changesOperation } from './change-feed.js'
import { TOTAL_ITEMS_ACCURACY } from './collection.js'
import { type ContextTerm, HYDRA } from './context.js'
import { declaredNote } from './declared-note.js'
import {
  type ApiDescription,
  classId,
  type DocumentedCollection,
  type DocumentedField,
  type DocumentedLink,
  type DocumentedType,
  propertyId,
} from './documented-types.js'
import { searchTemplate } from './search-documentation.js'

export type {
  ApiDescription,
  DocumentedCollection,
  DocumentedField,
  DocumentedLink,
  DocumentedType,
} from './documented-types.js'

const XSD = 'http://www.w3.org/2001/XMLSchema#'

/** Where the documents live, from the request: `origin` + `base` (the mount path, '' at the root). */
export interface ApiLocation {
  /** The public origin (`https://api.example.com`). */
  origin: string
  /** The mount path (`/api`; '' at the root). */
  base: string
}

export const docsPath = (base: string) => `${base}/docs.jsonld`
/** The entrypoint's path: `/` at the root, the mount path itself (`/api`) under one. */
export const entrypointPath = (base: string) => base || '/'
export const docsUrl = ({ origin, base }: ApiLocation) => `${origin}${docsPath(base)}`

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
      ...api.types.map((type) => documentType(type, hideableBy(api.access, type.name))),
      documentEntrypoint(api, base),
      ...(api.types
        .flatMap((type) => type.collections)
        .some(
          (collection) =>
            (collection.totals ?? 'exact') !== 'exact' ||
            collection.paging.clientTotals?.some(
              (mode) => mode === 'estimated' || mode === 'planned'
            )
        )
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
 * vocabulary (`#enum/Genre`) of exactly its values (`owl:oneOf`), declared alike wherever the enum
 * is used. Its IRI is not a class's (`#Genre` may be a custom collection's type of that name) nor a
 * property's (`#Book/title`: no class is named `enum`, a lower-case word). `xsd:string` comes
 * first: generic clients read the first range (API Platform's admin fails on a list whose first
 * range is not a datatype it knows).
 */
function rangeOf(field: DocumentedField): string | unknown[] {
  if (field.list) return 'rdf:List'
  if (field.values)
    return [
      'xsd:string',
      {
        '@id': `#enum/${field.type}`,
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
 * be shared by several classes and is not ours to define: it is declared without a domain, and
 * labelled, in each class, with the name of the field it is there (`title` in Book, `name` in
 * Author), as each class also names it in the supported property's `hydra:title`. Clients name
 * fields from either: api-doc-parser 0.16 (the admin) reads the title, 0.12 (client-generator 0.7)
 * the label, and both must give the key the JSON holds. A graph merging the documentation holds
 * both labels of `schema:name`, which RDF allows.
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
  if (field.iri) return { '@id': id, '@type': rdfType, 'rdfs:label': field.name, ...rest }
  return { '@id': id, '@type': rdfType, 'rdfs:label': field.name, domain: classId(type), ...rest }
}

/**
 * A relation's property: a `hydra:Link`, so generic clients follow its value. To-one: its range
 * is the related class and `owl:maxCardinality` 1 (api-doc-parser then reports a reference to the
 * related resource, and API Platform's admin shows a link that opens it). To-many: the value is
 * one IRI, of a collection of the related class, declared as the entrypoint declares collections
 * (`hydra:Collection`, every `hydra:member` of the class): the admin shows that IRI as text; a
 * range of the related class would make it expect an array of the related items' IRIs. A to-one
 * relation declared embedded (docs/member-shape.md) on every operation is an `rdf:Property` of the
 * same range; one embedded on some operations only stays a link, which the others show.
 */
function documentLink(type: DocumentedType, link: DocumentedLink): Record<string, unknown> {
  const target = { '@id': classId(link.target) }
  // A relation declared embedded holds the related item, not a link to follow (as API Platform
  // documents an embedded relation): api-doc-parser then reports it embedded, not a reference.
  // A declaration without `operations` makes every operation embed it.
  const embedded = type.embedded?.some(
    (property) => property.name === link.name && !property.operations
  )
  if (link.kind === 'one')
    return declareProperty(type, link, embedded ? 'rdf:Property' : 'hydra:Link', {
      'rdfs:range': target,
      'owl:maxCardinality': 1,
    })
  return declareProperty(type, link, 'hydra:Link', collectionOf(link.target))
}

/**
 * The range of a link to a collection of the type's members, in both forms clients read: a
 * `hydra:Collection` every `hydra:member` of which is of the class (`owl:equivalentClass`, which
 * api-doc-parser 0.16 and API Platform's admin need, and API Platform wrote up to 4.3), and the
 * Hydra core spec's `hydra:memberAssertion` (each member `rdf:type` the class), which API Platform
 * writes from 4.4 alone and clients written against the spec read.
 */
function collectionOf(type: Pick<DocumentedType, 'name'>): Record<string, unknown> {
  const members = { '@id': classId(type) }
  return {
    'rdfs:range': [
      { '@id': 'hydra:Collection' },
      {
        'owl:equivalentClass': {
          'owl:onProperty': { '@id': 'hydra:member' },
          'owl:allValuesFrom': members,
        },
      },
    ],
    'hydra:memberAssertion': {
      'hydra:property': { '@id': 'rdf:type' },
      'hydra:object': members,
    },
  }
}

/**
 * A type's class. A property `hideable` names (the app's rules for the type may hide it from some
 * callers, docs/security.md) is not `hydra:required` unless it is a key's field, as in the
 * OpenAPI schemas.
 */
function documentType(
  type: DocumentedType,
  hideable: (name: string) => boolean
): Record<string, unknown> {
  const id = classId(type)
  const always = (name: string) => !hideable(name) || (type.keyNames ?? []).includes(name)
  return {
    '@id': id,
    '@type': 'hydra:Class',
    'rdfs:label': type.name,
    'hydra:title': type.name,
    ...(type.description ? { 'hydra:description': type.description } : {}),
    // The semantic type a resource declares (schema.org's Book) is what its members are too.
    ...(type.iri ? { 'rdfs:subClassOf': { '@id': type.iri } } : {}),
    'hydra:supportedProperty': [
      ...type.fields.map((field) =>
        supportedProperty(
          { ...field, required: always(field.name) && field.required !== false },
          documentProperty(type, field)
        )
      ),
      ...(type.links ?? []).map((link) =>
        supportedProperty(
          {
            ...link,
            required: always(link.name) && (link.kind === 'many' || link.required !== false),
            ...declaredNote(type, link.name),
          },
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
  const classOf = (model: string) => {
    const found = api.types.find((candidate) => candidate.name === model)
    return found && classId(found)
  }
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
            ...collectionOf(type),
            'hydra:supportedOperation': [
              {
                '@type': ['hydra:Operation', 'schema:FindAction'],
                'hydra:method': 'GET',
                'hydra:title': `get${type.name}Collection`,
                'rdfs:label': `Retrieves the collection of ${type.name} resources.`,
                returns: 'hydra:Collection',
                'hydra:search': searchTemplate(type, collection, base, classOf),
              },
              ...others.map((other) => ({
                '@type': ['hydra:Operation', 'schema:FindAction'],
                'hydra:method': 'GET',
                'hydra:title': `get${capitalized(other.name)}Collection`,
                'rdfs:label':
                  other.description ??
                  `Retrieves the ${type.name} resources at ${base}${other.path}.`,
                returns: 'hydra:Collection',
                'hydra:search': searchTemplate(type, other, base, classOf),
              })),
              ...changesOperation(type, base),
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
