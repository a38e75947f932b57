/**
 * The Prisma project of docs/getting-started.md, in pieces `prisma-hydra init` writes or inserts:
 * the generator blocks, a first served model and its rows, `prisma.config.ts` and `tsconfig.json`.
 */

import { compiledFolders, type Layout, schemaOutput } from './layout.js'

/** Prisma 7's client generator, writing where the routes import it from. */
function clientBlock(layout: Layout): string {
  return `generator client {
  provider            = "prisma-client"
  output              = "${schemaOutput(layout, layout.clientFolder)}"
  moduleFormat        = "esm"
  importFileExtension = "js"
}`
}

/** The routes' generator, called `name`. */
export function hydraBlock(layout: Layout, name = 'hydra'): string {
  return `generator ${name} {
  provider = "prisma-hydra"
  output   = "${schemaOutput(layout, layout.hydraFolder)}"
}`
}

/** The model a project without one starts with: a served model, and a field never served. */
export const FIRST_MODEL = `/// A book of the catalogue. Ten a page; clients may ask for up to 50.
/// @pagination(itemsPerPage: 10, clientItemsPerPage: true, maximumItemsPerPage: 50)
model Book {
  id          Int      @id @default(autoincrement())
  title       String
  publishedAt DateTime
  /// Never served:
  /// @hidden
  internalNote String?
}`

/** The schema of a new project, on SQLite. */
export function newSchema(layout: Layout): string {
  return `${clientBlock(layout)}

${hydraBlock(layout)}

datasource db {
  provider = "sqlite"
}

${FIRST_MODEL}
`
}

/** `prisma.config.ts`: where the schema is, and the database's URL. */
export function prismaConfig(layout: Layout): string {
  return `import { defineConfig } from 'prisma/config'

export default defineConfig({
  schema: '${layout.schemaPath}',
  datasource: { url: process.env.DATABASE_URL ?? 'file:./dev.db' },
})
`
}

/** `src/seed.ts`: 25 rows of the first model. */
export const SEED_SCRIPT = `import { prisma } from './prisma.js'

await prisma.book.deleteMany()
await prisma.book.createMany({
  data: Array.from({ length: 25 }, (_, i) => ({
    title: \`Book \${i + 1}\`,
    publishedAt: new Date(Date.UTC(2020, 0, i + 1)),
    internalNote: 'not for clients',
  })),
})
await prisma.$disconnect()
`

/** `seed.sql`: the same rows for D1, written as Prisma writes them on SQLite. */
export const SEED_SQL = `DELETE FROM "Book";
INSERT INTO "Book" ("id", "title", "publishedAt", "internalNote")
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 25)
SELECT i, 'Book ' || i, date('2020-01-01', '+' || (i - 1) || ' days') || 'T00:00:00.000+00:00',
  'not for clients'
FROM n;
`

/**
 * `tsconfig.json`: ES modules read as Node.js reads them, strict; `src` compiled into `dist`, with
 * the folders of generated code outside `src` when the schema writes them there.
 */
export function tsconfig(generatedFolders: readonly string[]): string {
  const folders = compiledFolders(generatedFolders)
  const rootDir = folders.length === 1 ? 'src' : '.'
  return `{
  "compilerOptions": {
    "target": "ES2022",
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "strict": true,
    "skipLibCheck": true,
    "types": ["node"],
    "rootDir": "${rootDir}",
    "outDir": "dist"
  },
  "include": [${folders.map((folder) => JSON.stringify(folder)).join(', ')}]
}
`
}
