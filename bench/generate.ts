/**
 * `prisma generate` for bench/schema.prisma, once per database the benchmarks run on (a Prisma
 * client serves one provider only): the schema as written (SQLite) into bench/.generated/, and
 * copies of it for PostgreSQL and MySQL (@prisma-hydra/prisma-offline/schema-copy) into
 * bench/.generated-postgresql/ and bench/.generated-mysql/ (the copy, `prisma/` and `hydra/`);
 * the PostgreSQL copy with Prisma's `relationJoins` preview feature on (JOINS: the client of the
 * best hand-written routes, bench/peers-best.ts); and the PostgreSQL copy's Prisma 8 contract
 * (emitContract). Generating needs no database
 * server. Run by `npm run bench:prepare`, through the offline Prisma CLI wrapper.
 */
import { execFile } from 'node:child_process'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { writeSchemaCopy } from '@prisma-hydra/prisma-offline/schema-copy'

const run = promisify(execFile)
const at = (relative: string) => fileURLToPath(new URL(relative, import.meta.url))
const SCHEMA = at('./schema.prisma')
const SQLITE = at('./.generated/')
/** The folder of each copy, by provider. */
const COPIES = {
  postgresql: at('./.generated-postgresql/'),
  mysql: at('./.generated-mysql/'),
}
const CLI = createRequire(import.meta.url).resolve('@prisma-hydra/prisma-offline/prisma')
const PRISMA8 = at('./.generated-prisma8/')
/** Prisma 8's CLI, installed in example-prisma8 (the repository's is Prisma 7's). */
const PRISMA8_CLI = at('../example-prisma8/node_modules/.bin/prisma')

/** Every generator's output moves from below bench/.generated/ to the same place below `to`. */
function relocate(file: string, to: string): string {
  const relative = path.relative(SQLITE, file)
  if (relative.startsWith('..') || path.isAbsolute(relative)) {
    throw new Error(`Generator output ${file} is not below ${SQLITE}`)
  }
  return path.join(to, relative)
}

async function generate(schema: string): Promise<void> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, 'generate', '--schema', schema])
    process.stdout.write(`${stdout}${stderr}`)
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string }
    process.stderr.write(`${stdout}${stderr}`)
    throw new Error(`prisma generate --schema ${schema} failed`, { cause: error })
  }
}

/**
 * The folder of each copy whose client loads relations with Prisma's `relationLoadStrategy`, by
 * provider: PostgreSQL has it behind the `relationJoins` preview feature (Prisma 7.10; `join` is
 * then the default). MariaDB has not (Prisma answers P2019 "`relationLoadStrategy: join` is not
 * available for MySQL < 8.0.14 and MariaDB"), nor has SQLite.
 */
const JOINS = {
  postgresql: at('./.generated-postgresql-joins/'),
}

/** Writes the schema's copy for `provider` into `dir`, with `relationJoins` on when `joins`. */
async function copyOf(provider: string, dir: string, joins: boolean): Promise<string> {
  const copy = await writeSchemaCopy({
    schemaPath: SCHEMA,
    provider,
    dir,
    output: (file) => relocate(file, dir),
  })
  if (!joins) return copy
  const text = await readFile(copy, 'utf8')
  const joined = text.replace(
    /^(generator client \{\n)/m,
    '$1  previewFeatures = ["relationJoins"]\n'
  )
  if (joined === text) throw new Error(`${copy}: no generator client block to turn joins on in`)
  await writeFile(copy, joined)
  return copy
}

const copies = await Promise.all([
  ...Object.entries(COPIES).map(([provider, dir]) => copyOf(provider, dir, false)),
  ...Object.entries(JOINS).map(([provider, dir]) => copyOf(provider, dir, true)),
])
/**
 * The PostgreSQL copy's models (its generator and datasource blocks dropped, which Prisma 8
 * refuses) as a Prisma 8 contract in bench/.generated-prisma8/ (bench/prisma8.config.ts), emitted
 * by Prisma 8's CLI under Node 22: the contract of bench/peers-server.ts's `prisma8` server.
 */
async function emitContract(): Promise<void> {
  const models = (await readFile(path.join(COPIES.postgresql, 'schema.prisma'), 'utf8')).replace(
    /^(generator|datasource) \w+ \{[^}]*\}\n/gm,
    ''
  )
  await mkdir(PRISMA8, { recursive: true })
  await writeFile(path.join(PRISMA8, 'contract.prisma'), `// use prisma-8\n${models}`)
  const args = [at('../example-prisma8/scripts/node22.mjs'), PRISMA8_CLI, 'contract', 'emit']
  try {
    await run(process.execPath, [...args, '--config', at('./prisma8.config.ts')])
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string }
    process.stderr.write(`${stdout}${stderr}`)
    throw new Error('prisma contract emit (bench/prisma8.config.ts) failed', { cause: error })
  }
}

// The CLI spends most of its time starting up: the generations run side by side.
await Promise.all([generate(SCHEMA), ...copies.map(generate), emitContract()])
