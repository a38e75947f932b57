/**
 * The query parameters a filter and order spec accepts, as API Platform's filters describe them
 * (`getDescription()`): what `hydra:search` lists, in responses and in the documentation.
 */

import type { PropertySpec } from '../contract/properties.js'
import {
  DATE_OPERATORS,
  type OrderFieldSpec,
  type QuerySpec,
  RANGE_OPERATORS,
  type ValueType,
} from '../contract/query.js'
import { ID_ORDER, idOrderFields, keyOf } from './id-order.js'
import { relationHops } from './relation-path.js'

/** A filter or order parameter of a collection: its variable and the field it reads. */
export interface QueryVariable {
  variable: string
  field: string
  description: string
  /**
   * What the variable's value is: a value of the field, read as this type, or (`exists`) a
   * boolean saying whether the field has one.
   */
  value: ValueType | 'exists'
  /**
   * A path ending at a relation (`book.author`): the related model whose items the value names,
   * by IRI or id.
   */
  target?: string | undefined
}

/** The variables of an operation's query spec with the field each filters or orders by. */
export function queryVariables(spec: QuerySpec): QueryVariable[] {
  const variables: QueryVariable[] = []
  let value: QueryVariable['value'] = { type: 'String' }
  let target: string | undefined
  const add = (variable: string, field: string, description: string) =>
    variables.push({ variable, field, description, value, ...(target ? { target } : {}) })
  for (const filter of spec.filters) {
    const { field } = filter
    target =
      filter.kind === 'search' && filter.items !== undefined && filter.through
        ? relationHops(filter.through).at(-1)?.model
        : undefined
    value =
      filter.kind === 'exists'
        ? 'exists'
        : filter.kind === 'date'
          ? { type: 'DateTime' }
          : filter.kind === 'boolean'
            ? { type: 'Boolean' }
            : filter
    switch (filter.kind) {
      case 'search':
        add(field, field, `Items whose ${field} matches (${filter.strategy}).`)
        // API Platform describes `field[]` for exact matches (and relations) only.
        if (filter.strategy === 'exact' || filter.relation)
          add(`${field}[]`, field, `Items whose ${field} is one of the values.`)
        break
      case 'numeric':
        add(field, field, `Items whose ${field} equals the number.`)
        add(`${field}[]`, field, `Items whose ${field} is one of the numbers.`)
        break
      case 'boolean':
        add(field, field, `Items whose ${field} is true or false.`)
        break
      case 'range':
        for (const operator of RANGE_OPERATORS)
          add(`${field}[${operator}]`, field, `Items whose ${field} is ${operator} the bound.`)
        break
      case 'date':
        for (const operator of DATE_OPERATORS)
          add(`${field}[${operator}]`, field, `Items whose ${field} is ${operator} the date.`)
        break
      case 'exists':
        add(
          `${spec.parameters.exists}[${field}]`,
          field,
          `true: items with a ${field}; false: items without one.`
        )
        break
    }
  }
  if (spec.order.length > 0) {
    // Every key field, as the query reads them: a composite key's second field too.
    const orderable = [...spec.order, ...keyOf(spec)]
    const fields = [...new Set(orderable.map((entry) => entry.field))]
    for (const field of fields) {
      value = orderable.find((entry) => entry.field === field) as OrderFieldSpec
      add(`${spec.parameters.order}[${field}]`, field, `Order by ${field}: asc or desc.`)
    }
    const alias = idOrderFields(spec)
    if (alias) {
      value = alias[0] as OrderFieldSpec
      const key = alias.map((entry) => entry.field).join(', ')
      // Mapped to the key's (first) field: the property it orders by.
      add(
        `${spec.parameters.order}[${ID_ORDER}]`,
        (alias[0] as OrderFieldSpec).field,
        `Order by the key (${key}), the items' identity: asc or desc.`
      )
    }
  }
  return variables
}

/**
 * The variables of an operation's (or items') property filter (docs/member-shape.md): `properties[]`, then
 * `properties[author][]` for each relation it embeds, each with the names it takes. They set the
 * term `properties` of the type: the properties its members show.
 */
export function propertyVariables(
  spec: { properties?: PropertySpec | undefined } | undefined
): Array<QueryVariable & { names: readonly string[] }> {
  const filter = spec?.properties
  if (!filter) return []
  const { parameter, properties } = filter
  const names = properties.map((property) => property.name)
  const value = { type: 'String' }
  return [
    {
      variable: `${parameter}[]`,
      field: 'properties',
      value,
      names,
      description: `The properties each member shows (besides @id and @type): ${names.join(', ')}.`,
    },
    ...properties.flatMap(({ name, embed }) => {
      if (!embed) return []
      const fields = embed.fields.map((field) => field.name)
      return [
        {
          variable: `${parameter}[${name}][]`,
          field: 'properties',
          value,
          names: fields,
          description: `Embeds ${name} (a ${embed.model}) with these of its fields: ${fields.join(', ')}.`,
        },
      ]
    }),
  ]
}
