/**
 * JSON-LD context documents: what every key of a response means. A type's context maps its fields
 * to terms of the API's vocabulary (`<docs>#Book/title`) or to the IRIs they declare, and defines
 * Hydra's terms both ways: `hydra:member` through the `hydra` prefix, `member` as a term (API
 * Platform 4 style, `hydraPrefix: false`). Links (`first`, `next`, ...) are IRIs (`@type: @id`).
 */
import { scalarType } from '../scalar-types.js'

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

/** Names a type's fields cannot take when it is served without the `hydra:` prefix. */
export const HYDRA_TERMS: readonly string[] = [...HYDRA_VALUES, ...HYDRA_LINKS, 'search']

/**
 * The terms of the IRI template a collection's `hydra:search` holds (see `search.ts`), scoped to
 * that block: they never take the name of a field of the type.
 */
const TEMPLATE_TERMS = {
  IriTemplate: 'hydra:IriTemplate',
  IriTemplateMapping: 'hydra:IriTemplateMapping',
  BasicRepresentation: 'hydra:BasicRepresentation',
  template: 'hydra:template',
  variableRepresentation: { '@id': 'hydra:variableRepresentation', '@type': '@vocab' },
  mapping: 'hydra:mapping',
  'hydra:variableRepresentation': { '@type': '@vocab' },
  variable: 'hydra:variable',
  property: { '@id': 'hydra:property', '@type': '@vocab' },
  required: 'hydra:required',
} as const

/** A term of a JSON-LD context: an IRI, or a term definition. */
export type ContextTerm =
  | string
  | {
      /** The term's IRI. */
      '@id'?: string
      /** The type its values are coerced to (`@id`, `@vocab`, a datatype). */
      '@type'?: string
      /** A context scoped to the term's values. */
      '@context'?: object
    }

/**
 * The Hydra part of a context, leaving out the terms in `taken` (a type's own field names). With
 * `search`, a type's vocabulary and name, its search block takes a mapping's property that is no
 * field (`author.name`, `returnedAt/exists`) under the type, as the documentation declares it
 * (`<docs>#Book/author.name`), and the paging switches as the API's own terms (`<docs>#partial`).
 */
export function hydraTerms(
  taken: ReadonlySet<string> = new Set(),
  search?: { vocabulary: string; type: string }
): Record<string, ContextTerm> {
  const terms: Record<string, ContextTerm> = { hydra: HYDRA }
  for (const name of HYDRA_VALUES) if (!taken.has(name)) terms[name] = `hydra:${name}`
  for (const name of HYDRA_LINKS) {
    if (!taken.has(name)) terms[name] = { '@id': `hydra:${name}`, '@type': '@id' }
    terms[`hydra:${name}`] = { '@type': '@id' }
  }
  const scoped = search
    ? {
        ...TEMPLATE_TERMS,
        '@vocab': `${search.vocabulary}${search.type}/`,
        ...Object.fromEntries(PAGING_TERMS.map((term) => [term, `${search.vocabulary}${term}`])),
      }
    : TEMPLATE_TERMS
  terms['hydra:search'] = { '@context': scoped }
  if (!taken.has('search')) terms.search = { '@id': 'hydra:search', '@context': scoped }
  return terms
}

/** The paging switches a search maps to properties of the API's own (`<docs>#pagination`). */
const PAGING_TERMS = ['pagination', 'partial'] as const

/** A type a context document describes: a resource, or a custom collection's items. */
export interface ContextType {
  /**
   * The type's name (`Book`): the context's path, `/contexts/Book`, and its members' `@type`, a
   * term of the API's vocabulary (`<docs>#Book`), the class the documentation declares.
   */
  name: string
  /** Its fields. */
  fields: readonly ContextField[]
  /**
   * Relations shown as links: their values are IRIs (`@type: @id`), node references once expanded;
   * one its members may embed (docs/member-shape.md) scopes the embedded item's terms.
   */
  links?: readonly ContextLink[] | undefined
  /** The property filter of a resource: the to-one links a request may embed, and their fields. */
  properties?: ContextProperties | undefined
  /** The relations a resource declares embedded, and their fields. */
  embedded?: readonly ContextProperty[] | undefined
}

/** A resource's property filter, as its context reads it. */
export interface ContextProperties {
  /** The properties a request may select. */
  properties: readonly ContextProperty[]
}

/** A property of a context's type that may embed its related item. */
export interface ContextProperty {
  /** The property's name: a link's, when it embeds. */
  name: string
  /** What an item embedded in its place shows; none for a property that embeds nothing. */
  embed?: ContextEmbed | undefined
}

/** A relation of a context's type, shown as a link. */
export interface ContextLink {
  /** The link's name, the term. */
  name: string
  /** Its property IRI; default: a term of the API's vocabulary. */
  iri?: string | undefined
}

/** What an embedded item of a link shows: its model and the fields it may show. */
export interface ContextEmbed {
  /** The related model's name. */
  model: string
  /** The fields an embedded item may show. */
  fields: readonly ContextField[]
}

/** A field of a context's type. */
export interface ContextField {
  /** The field's name, the term. */
  name: string
  /** Its property IRI; default: a term of the API's vocabulary. */
  iri?: string | undefined
  /** Prisma type, or an enum's name when `values` is set: decides the literal's datatype. */
  type?: string | undefined
  /** An enum's values. */
  values?: readonly string[] | undefined
}

const XSD = 'http://www.w3.org/2001/XMLSchema#'

/**
 * The datatype a field's literals are coerced to: the documented range of the types JSON cannot
 * type itself (written as strings: dates, decimals, big integers, bytes), `@json` for Json
 * values. Numbers and booleans are typed by JSON-LD already.
 */
function datatypeOf(type: string): string | undefined {
  const scalar = scalarType(type)
  if (!scalar) return undefined
  if (scalar.tsType === 'JsonValue') return '@json'
  if (scalar.formatter === null) return undefined
  return scalar.range.startsWith('xsd:') ? `${XSD}${scalar.range.slice(4)}` : undefined
}

function fieldTerm(type: ContextType, field: ContextField): ContextTerm {
  const id = field.iri ?? `${type.name}/${field.name}`
  // An enum's value is an xsd:string, one of the values its datatype lists.
  const datatype =
    field.values !== undefined || field.type === undefined ? undefined : datatypeOf(field.type)
  return datatype === undefined ? id : { '@id': id, '@type': datatype }
}

/**
 * The terms of the items each link may embed (a request's property filter, a declaration), by
 * link: the related type's class and the fields it may show, as the related type's own context
 * defines them.
 */
function embeddedTerms(type: ContextType): Map<string, Record<string, ContextTerm>> {
  const embeds = [...(type.properties?.properties ?? []), ...(type.embedded ?? [])].flatMap(
    ({ name, embed }) => (embed ? [{ name, embed }] : [])
  )
  const terms = new Map<string, Record<string, ContextTerm>>()
  for (const { name, embed } of embeds) {
    const own = terms.get(name) ?? {}
    for (const field of embed.fields)
      own[field.name] = fieldTerm({ name: embed.model, fields: [] }, field)
    terms.set(name, own)
  }
  return terms
}

/**
 * The context of a type's collections and items. `vocabulary` is the API documentation's IRI with
 * a trailing `#`, so `Book/title` is defined there unless it declares its own IRI, and the type
 * `Book` always is: the class the documentation declares, whose superclass is the type's own IRI.
 */
export function contextDocument(
  vocabulary: string,
  type: ContextType
): { '@context': Record<string, ContextTerm> } {
  const links = type.links ?? []
  const fields = new Set([...type.fields, ...links].map((field) => field.name))
  if (fields.has('hydra')) {
    throw new TypeError(
      `The context of ${type.name} cannot define a field "hydra": that term is the prefix of Hydra's vocabulary.`
    )
  }
  // The type's own name is its term too (`Collection`, a model of that name, is the API's own
  // type, not hydra:Collection): Hydra's term of the same name is left to its prefixed form.
  const context: Record<string, ContextTerm> = {
    '@vocab': vocabulary,
    ...hydraTerms(new Set([...fields, type.name]), { vocabulary, type: type.name }),
  }
  for (const field of type.fields) context[field.name] = fieldTerm(type, field)
  const embedded = embeddedTerms(type)
  for (const link of links) {
    const id = link.iri ?? `${type.name}/${link.name}`
    // An item embedded in place of the link's IRI (an object, where the IRI is a string) is read
    // with its own type's terms, scoped to the link (JSON-LD 1.1): it carries no context of its
    // own, and the scope is written here, so no other document is loaded to read it.
    const scoped = embedded.get(link.name)
    context[link.name] = scoped
      ? { '@id': id, '@type': '@id', '@context': scoped }
      : { '@id': id, '@type': '@id' }
  }
  return { '@context': context }
}
