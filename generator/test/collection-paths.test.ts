import { expect, it } from 'vitest'
import { buildHydra } from '../src/generate.js'
import { loadDatamodel } from './dmmf.js'

it('default collection paths: the model name, kebab-case, its last word in the English plural', async () => {
  const names = ['BookReview', 'Category', 'EventData', 'Person', 'Criterion', 'Shelf', 'Box']
  const datamodel = await loadDatamodel(
    names
      .map(
        (name) =>
          `/// @pagination\nmodel ${name} {\n  id Int @id\n  @@map("t_${name.toLowerCase()}")\n}\n`
      )
      .join('\n')
  )
  const { model } = buildHydra({
    datamodel,
    provider: 'sqlite',
    clientModule: '../prisma/client.js',
  })
  expect(model.resources.map((resource) => resource.collectionPath)).toEqual([
    '/book-reviews',
    '/categories',
    '/event-data',
    '/people',
    '/criteria',
    '/shelves',
    '/boxes',
  ])
})
