import { describe, expect, it } from 'vitest'
import type { PropertySpec } from '../contract/properties.js'
import { HydraError } from '../errors.js'
import { parseQuery } from '../iri/query-string.js'
import { modelShape } from '../plan/read-shape.js'
import { callerProperties, embeddingShape, readProperties } from './properties.js'

const spec: PropertySpec = {
  parameter: 'properties',
  properties: [
    { name: 'id' },
    { name: 'title' },
    {
      name: 'writer',
      field: 'author',
      embed: {
        model: 'Author',
        delegate: 'author',
        key: ['id'],
        fields: [
          { name: 'id', type: 'Int' },
          { name: 'name', type: 'String' },
          { name: 'country', type: 'String' },
        ],
      },
    },
    { name: 'reviews' },
  ],
}

const read = (query: string, given: PropertySpec = spec) => readProperties(parseQuery(query), given)

const refusal = (query: string): string => {
  try {
    read(query)
  } catch (error) {
    if (error instanceof HydraError && error.status === 400) return error.message
    throw error
  }
  throw new Error(`${query} was not refused`)
}

describe('the property filter', () => {
  it('reads the properties and the relations embedded, without the parameter nothing', () => {
    expect(read('title=x')).toBeUndefined()
    const selection = read('properties[]=title&properties[writer][]=name&properties[writer][]=name')
    expect([...(selection?.names ?? [])]).toEqual(['title', 'writer'])
    expect(selection?.embeds.get('writer')?.fields).toEqual(['name'])
    expect(readProperties(parseQuery('properties[]=title'), undefined)).toBeUndefined()
  })

  it('reads the renamed parameter only', () => {
    const renamed = { ...spec, parameter: 'fields' }
    expect(read('properties[]=nope', renamed)).toBeUndefined()
    expect([...(read('fields[]=id', renamed)?.names ?? [])]).toEqual(['id'])
  })

  it.each([
    [
      'properties[]=nope',
      '"nope" is not a property to select. Properties: id, title, writer, reviews',
    ],
    ['properties=title', 'selects properties as properties[]=name'],
    ['properties[title][]=x', '"title" is not a relation to embed. Relations: writer'],
    ['properties[author][]=name', '"author" is not a relation to embed'],
    ['properties[writer][]=email', '"email" is not a field of Author to embed'],
    ['properties[writer]=name', 'selects properties as properties[]=name'],
    ['properties[writer][0][]=name', 'one relation deep'],
    ['properties[0][]=title', 'selects properties as properties[]=name'],
    [Array.from({ length: 101 }, () => 'properties[]=id').join('&'), 'more than 100'],
  ])('refuses %s', (query, message) => {
    expect(refusal(query)).toContain(message)
  })

  it("reads a to-one relation's key and asked fields with the page, merged with the model's", () => {
    const selection = read('properties[writer][]=name&properties[writer][]=id')
    if (!selection) throw new Error('no selection')
    // The model reads its link to the author through the relation (its key is no column of it).
    const model = modelShape({ id: true, title: true, author: { select: { id: true } } })
    expect(model).toEqual({
      fields: ['id', 'title'],
      joined: [{ relation: 'author', fields: ['id'] }],
    })
    expect(embeddingShape(model, selection)).toEqual({
      fields: ['id', 'title'],
      joined: [{ relation: 'author', fields: ['id', 'name'] }],
    })
    expect(embeddingShape(modelShape({ id: true }), selection).joined).toEqual([
      { relation: 'author', fields: ['id', 'name'] },
    ])
  })

  it('leaves out what the caller may not see, a link by its Prisma field', () => {
    const seen = callerProperties(spec, new Set(['title', 'author.country']))
    expect(seen.properties.map((property) => property.name)).toEqual(['id', 'writer', 'reviews'])
    expect(seen.properties[1]?.embed?.fields.map((field) => field.name)).toEqual(['id', 'name'])
    expect(
      callerProperties(spec, new Set(['author'])).properties.map((entry) => entry.name)
    ).toEqual(['id', 'title', 'reviews'])
  })
})
