#!/usr/bin/env node
// `prisma generate` for the example app's schema and for the end-to-end test fixtures, through
// the offline CLI wrapper, once per database the app and the tests run on. A generated Prisma
// client serves one provider only, so each schema is generated as written (SQLite) into its own
// folder and, from copies for PostgreSQL and MySQL (@prisma-hydra/prisma-offline/schema-copy),
// into sibling folders:
//
//   src/generated/{prisma,hydra}              src/generated-<provider>/{prisma,hydra,schema.prisma}
//   test/.generated/<fixture>/{prisma,hydra}  test/.generated-<provider>/<fixture>/{…,schema.prisma}
//
// A fixture of what only PostgreSQL stores (scalar lists, uuid and Bytes keys) is written for
// PostgreSQL and generated as written into its PostgreSQL folder alone; its tests run in the
// `postgresql` project only.
//
// The example's schema is also generated for Cloudflare Workers, into src/generated-workerd/: a
// SQLite copy whose client says `runtime = "workerd"` (its query compiler is imported as a wasm
// module, which workerd requires), read under the `workerd` condition that wrangler's bundler
// sets (src/worker.ts, docs/runtime-workers.md).
//
// Code imports them as `#generated/*` and `#fixtures/*` (package.json "imports"): the SQLite
// folders by default, the others under the `postgresql` and `mysql` conditions (scripts/start.mjs,
// the test projects in vitest.config.ts). Stops at the first schema that fails.
import { execFile } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { writeSchemaCopy } from '@prisma-hydra/prisma-offline/schema-copy'

const app = fileURLToPath(new URL('..', import.meta.url))
const at = (relative) => path.join(app, relative)

/** The providers generated from a copy of each schema (written for SQLite). */
export const COPIES = ['postgresql', 'mysql']

/**
 * Each schema with the folder its generators write to, and that folder for each copy
 * (`sqlite: null`: a schema for PostgreSQL only, generated as written).
 */
export const TARGETS = [
  {
    schema: at('../prisma/schema.prisma'),
    sqlite: at('src/generated'),
    ...Object.fromEntries(COPIES.map((p) => [p, at(`src/generated-${p}`)])),
    workerd: at('src/generated-workerd'),
  },
  ...[
    'reference',
    'renamed',
    'cursor',
    'scalars',
    'filters',
    'totals',
    'relations',
    'ids',
    'composite-keys',
    'saas',
    'access',
    'embeds',
    'rules',
    'tenants',
    'platform',
    'changes',
  ].map((fixture) => ({
    schema: at(`test/fixtures/${fixture}/schema.prisma`),
    sqlite: at(`test/.generated/${fixture}`),
    ...Object.fromEntries(COPIES.map((p) => [p, at(`test/.generated-${p}/${fixture}`)])),
  })),
  { schema: at('test/fixtures/scalar-lists/schema.prisma'), sqlite: null },
  { schema: at('test/fixtures/native-ids/schema.prisma'), sqlite: null },
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

/** The SQLite copy of a target's schema whose Prisma client is generated for workerd. */
async function workerdCopy(target) {
  const copy = await writeSchemaCopy({
    schemaPath: target.schema,
    provider: 'sqlite',
    dir: target.workerd,
    output: (file) => relocate(file, target.sqlite, target.workerd),
  })
  const text = await readFile(copy, 'utf8')
  const client = /(generator client \{\n)/
  if (!client.test(text)) throw new Error(`${target.schema}: no "generator client" block`)
  await writeFile(copy, text.replace(client, '$1  runtime = "workerd"\n'))
  return copy
}

/**
 * Every generation of a target: the schema as written, then its copy for each provider (and for
 * workerd).
 */
async function generateTarget(target) {
  if (!target.sqlite) return generate(target.schema)
  const outputs = [await generate(target.schema)]
  if (target.workerd) outputs.push(await generate(await workerdCopy(target)))
  for (const provider of COPIES) {
    const copy = await writeSchemaCopy({
      schemaPath: target.schema,
      provider,
      dir: target[provider],
      output: (file) => relocate(file, target.sqlite, target[provider]),
    })
    outputs.push(await generate(copy))
  }
  return outputs.join('')
}

// The CLI spends most of its time starting up: the targets run side by side. Arguments name the
// schemas to generate (`node scripts/generate.mjs ids relations`: their folder names); none: all.
const only = process.argv.slice(2)
const chosen = only.length
  ? TARGETS.filter((target) => only.includes(path.basename(path.dirname(target.schema))))
  : TARGETS
const results = await Promise.allSettled(chosen.map(generateTarget))
for (const result of results) {
  if (result.status === 'fulfilled') process.stdout.write(result.value)
  else process.stderr.write(result.reason.output ?? `${result.reason}\n`)
}
if (results.some((result) => result.status === 'rejected')) process.exit(1)
