// init's reading of a schema file against Prisma's own: the same generators, options and model
// documentation, on the ways schemas are written.

import internals from '@prisma/internals'
import { describe, expect, it } from 'vitest'
import { readSchemaBlocks } from '../../src/init/schema-blocks.js'

const SCHEMA = `// A comment, and a doc comment on nothing:
/// detached

generator client {
  provider            = "prisma-client"   // Prisma 7's
  output              = "../src/db/client"
  importFileExtension = "js"
  previewFeatures     = ["views"]
}

generator routes {
  // the routes
  provider = "prisma-hydra"
  output   = "../src/db/\\"routes\\""
}

datasource db {
  provider = "postgresql"
}

///   Indented, then:
///@pagination(itemsPerPage: 5)
/// a URL: "http://example.org//x" and a brace }
model Book {
  id    Int    @id
  title String @default("}")
}

/// detached by a blank line

model Author {
  id Int @id
}

// a plain comment
/// right above
model Tag {
  id Int @id
}

enum Colour {
  RED
}

/// a view
view Shelf {
  id Int @unique
}
`

describe('readSchemaBlocks', () => {
  it("reads the generators' options and the models' documentation as Prisma does", async () => {
    const blocks = readSchemaBlocks(SCHEMA)
    const config = await internals.getConfig({ datamodel: SCHEMA })
    const dmmf = await internals.getDMMF({ datamodel: SCHEMA })
    expect(
      blocks
        .filter((block) => block.kind === 'generator')
        .map((block) => [block.name, block.options.get('provider'), block.options.get('output')])
    ).toEqual(config.generators.map((g) => [g.name, g.provider.value, g.output?.value]))
    expect(blocks.find((block) => block.kind === 'datasource')?.options.get('provider')).toBe(
      config.datasources[0]?.provider
    )
    // Prisma lists views among the models.
    expect(
      blocks
        .filter((block) => block.kind === 'model' || block.kind === 'view')
        .map((block) => [block.name, block.documentation])
    ).toEqual(dmmf.datamodel.models.map((model) => [model.name, model.documentation]))
    expect(blocks.map((block) => block.kind)).toEqual([
      'generator',
      'generator',
      'datasource',
      'model',
      'model',
      'model',
      'enum',
      'view',
    ])
  })

  it('ends each block at its closing line', () => {
    const lines = SCHEMA.split('\n')
    for (const block of readSchemaBlocks(SCHEMA)) {
      expect(lines[block.startLine]).toMatch(new RegExp(`^${block.kind} ${block.name} \\{`))
      expect(lines[block.endLine]).toBe('}')
    }
  })
})
