#!/usr/bin/env node
// `prisma generate` for the example app's schema and for the end-to-end test fixtures, through
// the offline CLI wrapper, once per database the app and the tests run on. A generated Prisma
// client serves one provider only, so each schema is generated as written (SQLite) into its own
// folder and, from a copy for PostgreSQL (@prisma-hydra/prisma-offline/schema-copy), into a sibling folder:
//
//   src/generated/{prisma,hydra}              src/generated-postgresql/{prisma,hydra,schema.prisma}
//   test/.generated/<fixture>/{prisma,hydra}  test/.generated-postgresql/<fixture>/{…,schema.prisma}
//
// Code imports them as `#generated/*` and `#fixtures/*` (package.json "imports"): the SQLite
// folders by default, the PostgreSQL ones under the `postgresql` condition (scripts/start.mjs,
// the `postgresql` test project in vitest.config.ts). Stops at the first schema that fails.
import { execFile } from 'node:child_process'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { writeSchemaCopy } from '@prisma-hydra/prisma-offline/schema-copy'

const app = fileURLToPath(new URL('..', import.meta.url))
const at = (relative) => path.join(app, relative)

/** Each schema with the folder its generators write to, and that folder for PostgreSQL. */
export const TARGETS = [
  {
    schema: at('../prisma/schema.prisma'),
    sqlite: at('src/generated'),
    postgresql: at('src/generated-postgresql'),
  },
  ...['reference', 'renamed', 'cursor', 'totals'].map((fixture) => ({
    schema: at(`test/fixtures/${fixture}/schema.prisma`),
    sqlite: at(`test/.generated/${fixture}`),
    postgresql: at(`test/.generated-postgresql/${fixture}`),
  })),
]

/** The same path below `to` as `file` is below `from`; throws when `file` is elsewhere. */
function relocate(file, from, to) {
  const relative = path.relative(from, file)
  if (relative.startsWith('..') || path.isAbsolute(relative)) {
    throw new Error(`Generator output ${file} is not below ${from}`)
  }
  return path.join(to, relative)
}

/** Runs `prisma generate` for `schema`; resolves with its output, rejects with it on failure. */
function generate(schema) {
  // The offline Prisma CLI wrapper (tools/prisma-offline).
  const cli = createRequire(import.meta.url).resolve('@prisma-hydra/prisma-offline/prisma')
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [cli, 'generate', '--schema', schema],
      { cwd: app },
      (error, stdout, stderr) => {
        const output = `${stdout}${stderr}`
        if (error) reject(Object.assign(error, { output }))
        else resolve(output)
      }
    )
  })
}

/** Both generations of a target: the schema as written, then its PostgreSQL copy. */
async function generateTarget(target) {
  const copy = await writeSchemaCopy({
    schemaPath: target.schema,
    provider: 'postgresql',
    dir: target.postgresql,
    output: (file) => relocate(file, target.sqlite, target.postgresql),
  })
  return [await generate(target.schema), await generate(copy)].join('')
}

// The CLI spends most of its time starting up: the targets run side by side.
const results = await Promise.allSettled(TARGETS.map(generateTarget))
for (const result of results) {
  if (result.status === 'fulfilled') process.stdout.write(result.value)
  else process.stderr.write(result.reason.output ?? `${result.reason}\n`)
}
if (results.some((result) => result.status === 'rejected')) process.exit(1)
