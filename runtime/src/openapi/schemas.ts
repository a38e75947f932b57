/**
 * The JSON Schemas (2020-12, as OpenAPI 3.1 takes them) of what the API sends: a member of each
 * type, an item, a collection page with its `hydra:view` and `hydra:search` (with and without the
 * `hydra:` prefix), and a problem. Built from the same type descriptions as the Hydra
 * documentation, so the two cannot drift.
 */
import type { DocumentedField, DocumentedLink, DocumentedType } from '../hydra/documentation.js'
import { hydraTerm } from '../terms.js'

/** A JSON Schema (2020-12), as a JSON object. */
export type Schema = Record<string, unknown>

/** A reference to a schema of `components.schemas`. */
export const schemaRef = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` })

/** The component names of a type's schemas. */
export const schemaNames = (type: Pick<DocumentedType, 'name'>) => ({
  member: type.name,
  item: `${type.name}.jsonld`,
  collection: (prefix: boolean) =>
    `${type.name}.${prefix ? 'Collection' : 'Collection.unprefixed'}`,
})

/** The schema of one value of a Prisma scalar type, as members write it (resource.ts). */
export function scalarSchema(type: string, values?: readonly string[] | undefined): Schema {
  if (values) return { type: 'string', enum: [...values] }
  switch (type) {
    case 'Int':
      return { type: 'integer' }
    case 'Float':
      return { type: 'number' }
    case 'BigInt':
      return { type: 'string', pattern: '^-?[0-9]+$', description: 'A big integer, as text.' }
    case 'Decimal':
      return {
        type: 'string',
        pattern: '^-?[0-9]+(\\.[0-9]+)?$',
        description: 'A decimal number, as text (no precision lost).',
      }
    case 'Boolean':
      return { type: 'boolean' }
    case 'DateTime':
      return { type: 'string', format: 'date-time' }
    case 'Bytes':
      return { type: 'string', contentEncoding: 'base64' }
    case 'Json':
      return { description: 'A JSON value.' }
    default:
      return { type: 'string' }
  }
}

/** A schema that also takes null. */
export function nullable(schema: Schema): Schema {
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'] }
  if (!('type' in schema) && !('enum' in schema)) return schema
  return { anyOf: [schema, { type: 'null' }] }
}

function fieldSchema(field: DocumentedField): Schema {
  const value = scalarSchema(field.type, field.values)
  const schema = field.list ? { type: 'array', items: value } : value
  const described = field.description ? { ...schema, description: field.description } : schema
  return field.required === false ? nullable(described) : described
}

function linkSchema(link: DocumentedLink): Schema {
  if (link.kind === 'many')
    return {
      type: 'string',
      format: 'uri-reference',
      description: `The IRI of the collection of the related ${link.target.name} items.`,
    }
  const schema = {
    type: 'string',
    format: 'uri-reference',
    description: `The IRI of the related ${link.target.name}.`,
  }
  return link.required === false ? nullable(schema) : schema
}

/**
 * A member of the type, as `hydra:member` lists it: its `@id`, `@type`, fields and links. What
 * `hideable` names (the app's rules for the type may hide it from some callers,
 * docs/security.md) is not required, unless no rule can hide it: the `@id`, the `@type` and the
 * key's fields.
 */
export function memberSchema(
  type: DocumentedType,
  hideable: (name: string) => boolean,
  extra: Record<string, Schema> = {}
): Schema {
  const properties: Record<string, Schema> = {
    ...extra,
    '@id': { type: 'string', format: 'uri-reference' },
    '@type': { const: type.name },
  }
  const always = [...Object.keys(properties), ...(type.keyNames ?? [])]
  for (const field of type.fields) properties[field.name] = fieldSchema(field)
  for (const link of type.links ?? []) properties[link.name] = linkSchema(link)
  return {
    type: 'object',
    ...(type.description ? { description: type.description } : {}),
    required: Object.keys(properties).filter((name) => always.includes(name) || !hideable(name)),
    properties,
    additionalProperties: false,
  }
}

/** An item at its own IRI: the member with its context. */
export const itemSchema = (type: DocumentedType, hideable: (name: string) => boolean): Schema =>
  memberSchema(type, hideable, { '@context': { type: 'string', format: 'uri-reference' } })

const VIEW_LINKS = ['first', 'last', 'previous', 'next'] as const

/** `hydra:view`: the page's own IRI and its links (docs/paging.md#view). */
export function viewSchema(prefix: boolean): Schema {
  const properties: Record<string, Schema> = {
    '@id': { type: 'string', format: 'uri-reference' },
    '@type': { const: hydraTerm('PartialCollectionView', prefix) },
  }
  for (const link of VIEW_LINKS)
    properties[hydraTerm(link, prefix)] = { type: 'string', format: 'uri-reference' }
  return { type: 'object', required: ['@id', '@type'], properties, additionalProperties: false }
}

/**
 * `hydra:search`: the parameters of the collection as an IRI template on its entry page (its path
 * asked without a query), a reference to that template by its IRI on every other page.
 */
export function searchSchema(prefix: boolean): Schema {
  const mapping = {
    type: 'object',
    required: ['@type', 'variable', 'property', 'required'],
    properties: {
      '@type': { const: 'IriTemplateMapping' },
      variable: { type: 'string' },
      property: { type: 'string' },
      required: { type: 'boolean' },
    },
    additionalProperties: false,
  }
  const keys = {
    template: hydraTerm('template', prefix),
    representation: hydraTerm('variableRepresentation', prefix),
    mapping: hydraTerm('mapping', prefix),
  }
  const id = { type: 'string', format: 'uri-reference' }
  const template = {
    type: 'object',
    required: ['@id', '@type', keys.template, keys.representation, keys.mapping],
    properties: {
      '@id': id,
      '@type': { const: hydraTerm('IriTemplate', prefix) },
      [keys.template]: { type: 'string' },
      [keys.representation]: { const: 'BasicRepresentation' },
      [keys.mapping]: { type: 'array', items: mapping },
    },
    additionalProperties: false,
  }
  const reference = {
    type: 'object',
    description: "The template's IRI: the entry page's path with the fragment `#search`.",
    required: ['@id'],
    properties: { '@id': id },
    additionalProperties: false,
  }
  return { oneOf: [template, reference] }
}

/** Component names of the shared schemas. */
export const SHARED = {
  view: (prefix: boolean) => (prefix ? 'HydraView' : 'HydraView.unprefixed'),
  search: (prefix: boolean) => (prefix ? 'HydraSearch' : 'HydraSearch.unprefixed'),
  problem: 'Problem',
} as const

/** A page of a collection of the type (docs/paging.md#view). */
export function collectionSchema(type: DocumentedType, prefix: boolean): Schema {
  const term = (name: string) => hydraTerm(name, prefix)
  return {
    type: 'object',
    description: `A page of a collection of ${type.name} resources.`,
    required: ['@context', '@id', '@type', term('member')],
    properties: {
      '@context': { type: 'string', format: 'uri-reference' },
      '@id': { type: 'string', format: 'uri-reference' },
      '@type': { const: term('Collection') },
      [term('totalItems')]: { type: 'integer', minimum: 0 },
      totalItemsAccuracy: {
        enum: ['estimated', 'cached'],
        description: 'Present when the total is not an exact count (docs/paging.md).',
      },
      [term('member')]: { type: 'array', items: schemaRef(schemaNames(type).member) },
      [term('view')]: schemaRef(SHARED.view(prefix)),
      [term('search')]: schemaRef(SHARED.search(prefix)),
    },
    additionalProperties: false,
  }
}

/**
 * A problem (docs/errors.md): RFC 9457's members in the Hydra error's JSON-LD shape, with
 * `hydra:title` / `hydra:description`, or `description` when the API is served without the prefix.
 */
export function problemSchema(): Schema {
  return {
    type: 'object',
    description: 'An error, as application/problem+json and as a hydra:Error.',
    required: ['@context', '@id', '@type', 'type', 'title', 'detail', 'status'],
    properties: {
      '@context': { type: 'string', format: 'uri-reference' },
      '@id': { type: 'string', format: 'uri-reference' },
      '@type': { enum: ['hydra:Error', 'Error'] },
      type: { type: 'string', format: 'uri-reference' },
      title: { type: 'string' },
      detail: { type: 'string' },
      status: { type: 'integer', minimum: 400, maximum: 599 },
      'hydra:title': { type: 'string' },
      'hydra:description': { type: 'string' },
      description: { type: 'string' },
    },
    additionalProperties: false,
  }
}
