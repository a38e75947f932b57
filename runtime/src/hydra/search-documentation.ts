/**
 * @module
 * A collection's parameters as the Hydra documentation declares them: the IRI template of its GET
 * operation, each variable mapped to the property it sets, the same IRI its responses'
 * `hydra:search` expands to (search.ts), with a range.
 */
import type { QueryVariable } from '../filters/variables.js'
import { scalarType } from '../scalar-types.js'
import {
  classId,
  type DocumentedCollection,
  type DocumentedType,
  propertyId,
} from './documented-types.js'
import { type CollectionVariable, collectionVariables, termOf } from './search.js'

/** The query parameters a client may send to the collection, as a Hydra IRI template. */
export function searchTemplate(
  type: DocumentedType,
  collection: DocumentedCollection,
  base: string,
  classOf: ClassOf = () => undefined
): Record<string, unknown> {
  const variables = collectionVariables(type, collection.paging, collection.query)
  const names = variables.map((variable) => variable.variable)
  return {
    '@type': 'hydra:IriTemplate',
    'hydra:template': `${base}${collection.path}${names.length > 0 ? `{?${names.join(',')}}` : ''}`,
    'hydra:variableRepresentation': { '@id': 'hydra:BasicRepresentation' },
    'hydra:mapping': variables.map((variable) => ({
      '@type': 'hydra:IriTemplateMapping',
      'hydra:variable': variable.variable,
      'hydra:property':
        variable.property !== undefined
          ? { '@id': variable.property }
          : searchProperty(type, variable, classOf),
      'hydra:required': false,
      'hydra:description': variable.description,
    })),
  }
}

/** The class IRI of a model the API serves (`#Author`), or undefined. */
export type ClassOf = (model: string) => string | undefined

/**
 * The property a filter's or an order's variable sets: a field's or a link's own property, which
 * the class declares; otherwise a property of the API's vocabulary under the type, declared here
 * with its range: a field through a relation (`#Book/author.name`, the related field's type), an
 * item through relations (`#Review/book.author`, the related class) or whether a field has a value
 * (`#Loan/returnedAt/exists`, a boolean).
 */
function searchProperty(
  type: DocumentedType,
  variable: CollectionVariable,
  classOf: ClassOf
): Record<string, unknown> {
  const value = variable.value ?? { type: 'String' }
  const field = [...type.fields, ...(type.links ?? [])].find(
    (candidate) => candidate.name === variable.field
  )
  if (field && value !== 'exists') return { '@id': propertyId(type, field) }
  const term = termOf({ field: variable.field ?? variable.term, value })
  return {
    '@id': `#${type.name}/${term}`,
    '@type': 'rdf:Property',
    'rdfs:label': term,
    domain: classId(type),
    ...targetRange(variable.target, classOf, value),
  }
}

/**
 * The range of a search property: the related class for a path ending at a relation (its value
 * is an item of it, by IRI or id), else the value's datatype.
 */
function targetRange(
  target: string | undefined,
  classOf: ClassOf,
  value: QueryVariable['value']
): Record<string, unknown> {
  const related = target === undefined ? undefined : classOf(target)
  return related === undefined ? { range: rangeOf(value) } : { range: related }
}

function rangeOf(value: QueryVariable['value']): string {
  if (value === 'exists') return 'xsd:boolean'
  if (value.type === 'Enum') return 'xsd:string'
  return scalarType(value.type)?.range ?? 'xsd:string'
}
